import { eq, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { guardianLinks, memberships, passwordResetCodes, refreshTokens, users } from '../../db/schema.js';
import { randomToken } from '../../lib/random-codes.js';
import { writeAudit } from '../audit/write-audit.js';

export const ERASED_NAME = 'Borttagen säljare';

export type ErasureReason = 'guardian_declined' | 'guardian_withdrew' | (string & {});

/**
 * Erases a person's account (issue 22; the agreed signature, owned by the export/erasure work:
 * this is the smallest version, which the owner's replaces at merge). The users row stays as a
 * tombstone named 'Borttagen säljare' with every personal field blanked, so orders, order lines
 * and payouts keep pointing at the membership and group totals do not change. Sessions end,
 * guardian links go, and the personal link stops working.
 */
export async function eraseAccount(tx: Tx, userId: number, options: { actorUserId: number | null; reason: ErasureReason }): Promise<void> {
  await tx
    .update(users)
    .set({
      fullName: ERASED_NAME,
      // The address must stay unique and not null; this one can never receive mail or sign in.
      email: `borttagen-${userId}-${randomToken().slice(0, 12)}@invalid.invalid`,
      passwordHash: '!',
      phone: null,
      alias: null,
      guardianConsent: null,
      saleMail: false,
      weeklySummary: false,
      activeGroupId: null,
      erasedAt: new Date(),
      tokenVersion: sql`${users.tokenVersion} + 1`,
    })
    .where(eq(users.id, userId));
  await tx.delete(refreshTokens).where(eq(refreshTokens.userId, userId));
  await tx.delete(passwordResetCodes).where(eq(passwordResetCodes.userId, userId));
  await tx.delete(guardianLinks).where(or(eq(guardianLinks.childUserId, userId), eq(guardianLinks.guardianUserId, userId)));
  // Lower case never matches: `/s/{code}` reads codes in upper case, so the old link is unknown.
  await tx
    .update(memberships)
    .set({ linkCode: sql`'erased-' || ${memberships.id}::text || '-' || md5(random()::text)` })
    .where(eq(memberships.userId, userId));
  await writeAudit(tx, {
    actorUserId: options.actorUserId,
    action: 'account.erase',
    targetType: 'user',
    targetId: userId,
    details: { reason: options.reason },
  });
}
