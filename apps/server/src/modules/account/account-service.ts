import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { TAccountGroup } from '@saljportalen/contract';
import { isUniqueViolation, type Db, type Tx } from '../../db/client.js';
import { groups, guardianLinks, memberships, users } from '../../db/schema.js';
import { AppError, fieldError } from '../../errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { Mail } from '../../lib/mailer.js';
import { enqueueMails } from '../../db/mail-outbox.js';
import { revokeAllRefreshTokens } from '../auth/refresh-tokens.js';

async function requireCurrentPassword(db: Db, userId: number, currentPassword: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHENTICATED', 'Kontot finns inte längre');
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    throw fieldError('VALIDATION', 'current_password', 'Nuvarande lösenord är fel');
  }
  return user;
}

/** Whether the user runs at least one group: the weekly summary is theirs to opt in to. */
export async function isGroupAdmin(db: Db | Tx, userId: number): Promise<boolean> {
  const [admin] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.role, 'admin')))
    .limit(1);
  return admin !== undefined;
}

/** The profile with what the account is, read in one statement (the settings page asks on every visit). */
export async function loadProfile(db: Db, userId: number) {
  const memberOf = (role?: 'admin') =>
    sql<boolean>`exists (select 1 from ${memberships} m where m.user_id = ${userId}${role ? sql` and m.role = ${role}` : sql``})`;
  const [user] = await db
    .select({
      id: users.id,
      fullName: users.fullName,
      email: users.email,
      username: users.username,
      phone: users.phone,
      activeGroupId: users.activeGroupId,
      saleMail: users.saleMail,
      weeklySummary: users.weeklySummary,
      sells: memberOf(),
      runsGroup: memberOf('admin'),
      isGuardian: sql<boolean>`exists (select 1 from ${guardianLinks} l where l.guardian_user_id = ${userId} and l.approved_at is not null)`,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError('NOT_FOUND', 'Kontot finns inte');
  return {
    user: { id: user.id, full_name: user.fullName, email: user.email ?? user.username ?? '', username: user.username, phone: user.phone },
    group_hint: { id: user.activeGroupId },
    account: { sells: Boolean(user.sells), is_guardian: Boolean(user.isGuardian) },
    notifications: { sale_mail: user.saleMail, weekly_summary: user.weeklySummary, weekly_summary_offered: Boolean(user.runsGroup) },
  };
}

export async function updateProfile(db: Db, userId: number, options: { fullName: string; phone?: string | null }) {
  const phone = options.phone?.trim() ? options.phone.trim() : null;
  await db.update(users).set({ fullName: options.fullName.trim(), phone }).where(eq(users.id, userId));
}

/**
 * Ends every other session of the user after a change of password or e-mail address: their
 * refresh tokens are revoked and the token version bump refuses their access tokens at once. The
 * session that made the change keeps its refresh token; its caller needs a fresh access token.
 */
async function endOtherSessions(tx: Tx, userId: number, keepSessionId: string | undefined) {
  await tx
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId));
  await revokeAllRefreshTokens(tx, userId, keepSessionId);
}

export async function changePassword(
  db: Db,
  userId: number,
  options: { currentPassword: string; newPassword: string; keepSessionId: string | undefined; notices: Mail[] },
) {
  await requireCurrentPassword(db, userId, options.currentPassword);
  const passwordHash = await hashPassword(options.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
    await endOtherSessions(tx, userId, options.keepSessionId);
    await enqueueMails(tx, options.notices);
  });
}

export async function changeEmail(
  db: Db,
  userId: number,
  options: {
    currentPassword: string;
    newEmail: string;
    keepSessionId: string | undefined;
    notices: (change: { oldEmail: string | null; newEmail: string }) => Mail[];
  },
) {
  const user = await requireCurrentPassword(db, userId, options.currentPassword);
  const newEmail = options.newEmail.trim();
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, newEmail.toLowerCase()), ne(users.id, userId)));
  const takenError = fieldError('EMAIL_TAKEN', 'new_email', 'E-postadressen används redan av ett annat konto');
  if (taken) throw takenError;
  try {
    await db.transaction(async (tx) => {
      await tx.update(users).set({ email: newEmail }).where(eq(users.id, userId));
      await endOtherSessions(tx, userId, options.keepSessionId);
      await enqueueMails(tx, options.notices({ oldEmail: user.email, newEmail }));
    });
  } catch (error) {
    // Another account took the address between the check and the update: the unique index decides.
    if (isUniqueViolation(error)) throw takenError;
    throw error;
  }
  return { oldEmail: user.email, newEmail };
}

export async function listAccountGroups(db: Db, userId: number, activeGroupId: number | null): Promise<TAccountGroup[]> {
  const rows = await db
    .select({ groupId: groups.id, name: groups.name, code: groups.code, archived: groups.archived, role: memberships.role })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(groups.name));
  return rows.map((row) => ({
    group_id: row.groupId,
    group_name: row.name,
    group_code: row.code,
    role: row.role,
    is_active: row.groupId === activeGroupId,
    archived: row.archived,
  }));
}

export async function switchGroup(db: Db, userId: number, groupId: number) {
  const [membership] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.groupId, groupId)));
  if (!membership) throw new AppError('FORBIDDEN', 'Du är inte medlem i den gruppen');
  await db.update(users).set({ activeGroupId: groupId }).where(eq(users.id, userId));
}
