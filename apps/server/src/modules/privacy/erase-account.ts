import { eq, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { guardianLinks, memberships, passwordResetCodes, refreshTokens, users } from '../../db/schema.js';
import { writeAudit } from '../audit/write-audit.js';

/** The name an erased account keeps, so that orders, payouts and group totals still add up. */
export const ERASED_NAME = 'Borttagen säljare';

/**
 * Erases an account (issue 22, point 4). The smallest version, written for the retention job: the
 * export/erasure engineer owns this file and the integrator keeps their version at merge.
 *
 * The `users` row stays as a tombstone named 'Borttagen säljare' with every personal field blanked
 * and `erased_at` set; sessions end, reset codes and guardian links go, and each membership's
 * personal link stops working (its code is replaced by one no typed link can match). Orders, order
 * lines and payouts keep pointing at the membership, so group totals do not change.
 */
export async function eraseAccount(tx: Tx, userId: number, options: { actorUserId: number | null; reason: string }): Promise<void> {
  await tx
    .update(users)
    .set({
      fullName: ERASED_NAME,
      // Unique and not null: an address no one can have or sign in with.
      email: `borttagen-${userId}@borttagen.invalid`,
      passwordHash: '!',
      phone: null,
      alias: null,
      publicName: 'first_name',
      saleMail: false,
      weeklySummary: false,
      guardianConsent: null,
      activeGroupId: null,
      endedSessions: [],
      tokenVersion: sql`${users.tokenVersion} + 1`,
      erasedAt: sql`now()`,
    })
    .where(eq(users.id, userId));
  await tx.delete(refreshTokens).where(eq(refreshTokens.userId, userId));
  await tx.delete(passwordResetCodes).where(eq(passwordResetCodes.userId, userId));
  await tx.delete(guardianLinks).where(or(eq(guardianLinks.childUserId, userId), eq(guardianLinks.guardianUserId, userId)));
  // Stored codes are upper case and a typed one is upper-cased before lookup: this never matches.
  await tx
    .update(memberships)
    .set({ linkCode: sql`'borttagen-' || ${memberships.id}`, personalGoalOre: null })
    .where(eq(memberships.userId, userId));
  await writeAudit(tx, {
    actorUserId: options.actorUserId,
    action: 'user.erase',
    targetType: 'user',
    targetId: userId,
    details: { reason: options.reason },
  });
}
