import { and, eq, sql } from 'drizzle-orm';
import type { TPayout } from '@saljportalen/contract';
import type { Db, Tx } from '../../db/client.js';
import { groups, payouts } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';
import { findPayout } from './list-payouts.js';
import { receivingAccountForPayment } from './payout-account.js';

/**
 * Spec §4: draft -> paid, once, and only to an account the group has (issue 30 point 6). The status
 * condition sits in the update itself, so of two simultaneous requests exactly one marks the payout
 * and the other gets the 409.
 */
export async function markPayoutPaid(db: Db | Tx, options: { payoutId: number; actorUserId: number | null }): Promise<TPayout> {
  return db.transaction(async (tx) => {
    const alreadyPaid = () => new AppError('ALREADY_PAID', 'Avräkningen är redan markerad som betald');
    const [payout] = await tx
      .select({ groupId: payouts.groupId, status: payouts.status })
      .from(payouts)
      .where(eq(payouts.id, options.payoutId));
    if (!payout) throw new AppError('NOT_FOUND', 'Avräkningen finns inte');
    if (payout.status === 'paid') throw alreadyPaid();
    // Paid to the account the group has now, kept on the payout as it was (issue 30 point 6).
    const account = await receivingAccountForPayment(tx, payout.groupId);
    const [marked] = await tx
      .update(payouts)
      .set({
        status: 'paid',
        paidAt: sql`now()`,
        paidBy: options.actorUserId,
        paidToAccount: account.display,
        paidToHolder: account.holder_name,
      })
      .where(and(eq(payouts.id, options.payoutId), eq(payouts.status, 'draft')))
      .returning({ id: payouts.id });
    if (!marked) throw alreadyPaid();
    await writeAudit(tx, { actorUserId: options.actorUserId, action: 'payout.mark_paid', targetType: 'payout', targetId: marked.id });
    // A group cloned for next term while its commission was unsettled ends with its payout (issue 31 point 6).
    const [archived] = await tx
      .update(groups)
      .set({ archived: true, archiveWhenSettled: false })
      .where(and(eq(groups.id, payout.groupId), eq(groups.archiveWhenSettled, true), eq(groups.archived, false)))
      .returning({ id: groups.id });
    if (archived) {
      await writeAudit(tx, {
        actorUserId: options.actorUserId,
        action: 'group.archive',
        targetType: 'group',
        targetId: archived.id,
        details: { archived: true, via_payout_id: marked.id, cloned: true },
      });
    }
    return (await findPayout(tx, marked.id))!;
  });
}
