import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { ERASED_SELLER_NAME } from '@saljportalen/contract';
import type { Tx } from '../../db/client.js';
import {
  groups,
  guardianLinks,
  linkClicksPerDay,
  mailOutbox,
  memberships,
  passwordResetCodes,
  refreshTokens,
  users,
} from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';

export type ErasureReason = 'self' | 'superadmin' | 'guardian_declined' | 'guardian_withdrew' | 'retention';

/** What no argon2 hash can be: verifying any password against it fails (lib/passwords.ts). */
const UNUSABLE_PASSWORD_HASH = '!borttagen';

/** A unique address nobody can own (RFC 2606 `.invalid`), so the real one can register again. */
export const erasedEmail = (userId: number) => `borttagen-${userId}@raderad.invalid`;

/**
 * The link code of an erased membership: unique, and outside the alphabet a personal link or a
 * Shopify order's code is read in (`[A-Z0-9_-]`), so the link page treats the link as unknown and
 * an order carrying the old code stays unattributed for the superadmin. The old code is never
 * given to anyone else by this: codes are random and checked for uniqueness when made.
 */
export const erasedLinkCode = (membershipId: number) => `~borttagen-${membershipId}`;

/**
 * Erases an account (issue 22, decision 033). The users row stays as a tombstone named
 * 'Borttagen säljare' with every personal field blanked, so that orders, order lines and payouts
 * keep pointing at its memberships and no group's totals change. Sessions end, reset codes,
 * guardian links, link clicks and unsent mail to the address go. The audit entry is written in
 * the same transaction and holds no personal data.
 *
 * Refused with 409 for a superadmin, for an account already erased, and for the last admin of a
 * group that is not archived (the group needs another admin first).
 */
export async function eraseAccount(tx: Tx, userId: number, options: { actorUserId: number | null; reason: ErasureReason }): Promise<void> {
  const [user] = await tx
    .select({ id: users.id, email: users.email, isSuperadmin: users.isSuperadmin, erasedAt: users.erasedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!user) throw new AppError('NOT_FOUND', 'Kontot finns inte');
  if (user.erasedAt) throw new AppError('CONFLICT', 'Kontot är redan raderat');
  if (user.isSuperadmin) throw new AppError('CONFLICT', 'Ett superadministratörskonto kan inte raderas');

  await refuseLastAdmin(tx, userId);

  const owned = await tx.select({ id: memberships.id }).from(memberships).where(eq(memberships.userId, userId));
  const membershipIds = owned.map((membership) => membership.id);

  await tx.delete(refreshTokens).where(eq(refreshTokens.userId, userId));
  await tx.delete(passwordResetCodes).where(eq(passwordResetCodes.userId, userId));
  await tx.delete(guardianLinks).where(or(eq(guardianLinks.childUserId, userId), eq(guardianLinks.guardianUserId, userId)));
  await tx.delete(mailOutbox).where(and(eq(sql`lower(${mailOutbox.to})`, user.email.toLowerCase()), isNull(mailOutbox.sentAt)));
  if (membershipIds.length > 0) {
    await tx.delete(linkClicksPerDay).where(inArray(linkClicksPerDay.membershipId, membershipIds));
    await tx
      .update(memberships)
      .set({ linkCode: sql`'~borttagen-' || ${memberships.id}`, protectedIdentity: false, personalGoalOre: null })
      .where(inArray(memberships.id, membershipIds));
  }

  // The name change also gives each of the person's groups a new leaderboard version (the
  // trigger on users.full_name), so no cached leaderboard shows the old name.
  await tx
    .update(users)
    .set({
      email: erasedEmail(userId),
      passwordHash: UNUSABLE_PASSWORD_HASH,
      fullName: ERASED_SELLER_NAME,
      phone: null,
      alias: null,
      publicName: 'first_name',
      activeGroupId: null,
      isUnder13: false,
      guardianConsent: null,
      saleMail: false,
      weeklySummary: false,
      lastSignInAt: null,
      endedSessions: [],
      tokenVersion: sql`${users.tokenVersion} + 1`,
      erasedAt: new Date(),
    })
    .where(eq(users.id, userId));

  await writeAudit(tx, {
    actorUserId: options.actorUserId,
    action: 'account.erase',
    targetType: 'user',
    targetId: userId,
    details: { reason: options.reason, memberships: membershipIds.length },
  });
}

/**
 * A group that is still running needs an admin: the last one cannot be erased. The groups are
 * locked first, so two admins of one group erasing themselves at once cannot both pass.
 */
async function refuseLastAdmin(tx: Tx, userId: number): Promise<void> {
  const administered = await tx
    .select({ id: groups.id, name: groups.name })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(and(eq(memberships.userId, userId), eq(memberships.role, 'admin'), eq(groups.archived, false)))
    .orderBy(groups.id)
    .for('update', { of: groups });
  for (const group of administered) {
    const [other] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.groupId, group.id), eq(memberships.role, 'admin'), ne(memberships.userId, userId), isNull(users.erasedAt)))
      .limit(1);
    if (!other) {
      throw new AppError(
        'CONFLICT',
        `${group.name} har ingen annan administratör. Gruppen behöver en annan administratör innan kontot kan raderas.`,
      );
    }
  }
}
