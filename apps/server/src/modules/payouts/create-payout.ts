import { and, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { TPayoutNotCreatedReason } from '@saljportalen/contract';
import type { Db, Tx } from '../../db/client.js';
import { groups, orderLines, payouts } from '../../db/schema.js';
import { AppError, fieldError } from '../../errors.js';
import { stockholmDayStart } from '../../lib/dates.js';
import { writeAudit } from '../audit/write-audit.js';

export interface CreatePayoutOptions {
  groupId: number;
  /** Inclusive Stockholm calendar dates, `YYYY-MM-DD`. */
  from: string;
  to: string;
  autoArchive: boolean;
  /** Null when the system itself settles (demo data). */
  actorUserId: number | null;
}

export type CreatePayoutResult =
  { created: true; payoutId: number; commissionOre: number; autoArchived: boolean } | { created: false; reason: TPayoutNotCreatedReason };

/**
 * Settles every unsettled order line of a group booked inside the period into one new payout
 * (DESIGN D8). The group row lock serialises every settlement of the group, so of two requests
 * for overlapping periods the second sees the first one's lines as settled; the
 * `payout_id is null` guard on the update makes a line settle at most once even so.
 * Refund and cancellation lines are negative lines like any other and land in the payout whose
 * period holds their booking time.
 */
export async function createPayout(db: Db | Tx, options: CreatePayoutOptions): Promise<CreatePayoutResult> {
  if (options.from > options.to) throw fieldError('VALIDATION', 'to', 'Från-datum kan inte vara efter Till-datum.');
  const periodStart = stockholmDayStart(options.from);
  const periodEnd = stockholmDayStart(options.to, 1);
  const inPeriod = and(eq(orderLines.groupId, options.groupId), gte(orderLines.bookedAt, periodStart), lt(orderLines.bookedAt, periodEnd));

  return db.transaction(async (tx) => {
    const [group] = await tx
      .select({ id: groups.id, archived: groups.archived })
      .from(groups)
      .where(eq(groups.id, options.groupId))
      .for('update');
    if (!group) throw new AppError('NOT_FOUND', 'Gruppen finns inte');

    const unsettled = await tx
      .select({ id: orderLines.id, orderId: orderLines.orderId, amountOre: orderLines.amountOre, commissionOre: orderLines.commissionOre })
      .from(orderLines)
      .where(and(inPeriod, isNull(orderLines.payoutId)));
    if (unsettled.length === 0) {
      const [anyLine] = await tx.select({ id: orderLines.id }).from(orderLines).where(inPeriod).limit(1);
      return { created: false, reason: anyLine ? 'no_items_unpaid' : 'no_orders_in_range' };
    }

    const totals = {
      ordersCount: new Set(unsettled.map((line) => line.orderId)).size,
      linesCount: unsettled.length,
      salesOre: unsettled.reduce((sum, line) => sum + line.amountOre, 0),
      commissionOre: unsettled.reduce((sum, line) => sum + line.commissionOre, 0),
    };
    const [payout] = await tx
      .insert(payouts)
      .values({ groupId: group.id, periodFrom: options.from, periodTo: options.to, ...totals, createdBy: options.actorUserId })
      .returning({ id: payouts.id });
    const payoutId = payout!.id;

    const lineIds = unsettled.map((line) => line.id);
    const settled = await tx
      .update(orderLines)
      .set({ payoutId })
      .where(and(sql`${orderLines.id} = any(${sql.param(lineIds)}::bigint[])`, isNull(orderLines.payoutId)))
      .returning({ id: orderLines.id });
    // Unreachable while every settlement takes the group lock; if some other path ever settles
    // lines, the payout must not claim sums for lines it did not get, so it is rolled back.
    if (settled.length !== lineIds.length) {
      throw new AppError('CONFLICT', 'Några orderrader avräknades samtidigt av en annan avräkning. Försök igen.');
    }

    let autoArchived = false;
    if (options.autoArchive && !group.archived) {
      await tx.update(groups).set({ archived: true }).where(eq(groups.id, group.id));
      autoArchived = true;
      await writeAudit(tx, {
        actorUserId: options.actorUserId,
        action: 'group.archive',
        targetType: 'group',
        targetId: group.id,
        details: { archived: true, via_payout_id: payoutId },
      });
    }
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'payout.create',
      targetType: 'payout',
      targetId: payoutId,
      details: {
        group_id: group.id,
        period_from: options.from,
        period_to: options.to,
        orders_count: totals.ordersCount,
        lines_count: totals.linesCount,
        sales_ore: totals.salesOre,
        commission_ore: totals.commissionOre,
        auto_archived: autoArchived,
      },
    });
    return { created: true, payoutId, commissionOre: totals.commissionOre, autoArchived };
  });
}
