import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { TAccountGroup } from '@saljportalen/contract';
import { isUniqueViolation, type Db } from '../../db/client.js';
import { groups, memberships, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';

async function requireCurrentPassword(db: Db, userId: number, currentPassword: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHENTICATED', 'Kontot finns inte längre');
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    throw new AppError('VALIDATION', 'Nuvarande lösenord är fel');
  }
  return user;
}

export async function loadProfile(db: Db, userId: number) {
  const [user] = await db
    .select({ id: users.id, fullName: users.fullName, email: users.email, phone: users.phone, activeGroupId: users.activeGroupId })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError('NOT_FOUND', 'Kontot finns inte');
  return {
    user: { id: user.id, full_name: user.fullName, email: user.email, phone: user.phone },
    group_hint: { id: user.activeGroupId },
  };
}

export async function updateProfile(db: Db, userId: number, options: { fullName: string; phone?: string | null }) {
  const phone = options.phone?.trim() ? options.phone.trim() : null;
  await db.update(users).set({ fullName: options.fullName.trim(), phone }).where(eq(users.id, userId));
}

export async function changePassword(db: Db, userId: number, options: { currentPassword: string; newPassword: string }) {
  await requireCurrentPassword(db, userId, options.currentPassword);
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(options.newPassword) })
    .where(eq(users.id, userId));
}

export async function changeEmail(db: Db, userId: number, options: { currentPassword: string; newEmail: string }) {
  const user = await requireCurrentPassword(db, userId, options.currentPassword);
  const newEmail = options.newEmail.trim();
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, newEmail.toLowerCase()), ne(users.id, userId)));
  const takenError = new AppError('EMAIL_TAKEN', 'E-postadressen används redan av ett annat konto');
  if (taken) throw takenError;
  try {
    await db.update(users).set({ email: newEmail }).where(eq(users.id, userId));
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
