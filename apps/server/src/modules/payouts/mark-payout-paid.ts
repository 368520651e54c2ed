import { and, eq, sql } from 'drizzle-orm';
import type { TPayout } from '@saljportalen/contract';
import type { Db, Tx } from '../../db/client.js';
import { payouts } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';
import { findPayout } from './list-payouts.js';

/**
 * Spec §4: draft -> paid, once. The status condition sits in the update itself, so of two
 * simultaneous requests exactly one marks the payout and the other gets the 409.
 */
export async function markPayoutPaid(db: Db | Tx, options: { payoutId: number; actorUserId: number | null }): Promise<TPayout> {
  return db.transaction(async (tx) => {
    const [marked] = await tx
      .update(payouts)
      .set({ status: 'paid', paidAt: sql`now()`, paidBy: options.actorUserId })
      .where(and(eq(payouts.id, options.payoutId), eq(payouts.status, 'draft')))
      .returning({ id: payouts.id });
    if (!marked) {
      const [existing] = await tx.select({ id: payouts.id }).from(payouts).where(eq(payouts.id, options.payoutId));
      if (!existing) throw new AppError('NOT_FOUND', 'Avräkningen finns inte');
      throw new AppError('ALREADY_PAID', 'Avräkningen är redan markerad som betald');
    }
    await writeAudit(tx, { actorUserId: options.actorUserId, action: 'payout.mark_paid', targetType: 'payout', targetId: marked.id });
    return (await findPayout(tx, marked.id))!;
  });
}
