import { and, eq, gte, isNull, lt, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { TPayoutNotCreatedReason } from '@saljportalen/contract';
import type { Db, Tx } from '../../db/client.js';
import { groups, orderLines, payouts } from '../../db/schema.js';
import { ordersCountedInPayout } from '../figures/order-sums.js';
import { AppError, fieldError } from '../../errors.js';
import { lastPayableDay, stockholmDayStart } from '../../lib/dates.js';
import { writeAudit } from '../audit/write-audit.js';

export interface CreatePayoutOptions {
  groupId: number;
  /** Inclusive Stockholm calendar dates, `YYYY-MM-DD`. */
  from: string;
  to: string;
  autoArchive: boolean;
  /** Null when the system itself settles (demo data). */
  actorUserId: number | null;
  /** PAYOUT_HOLD_DAYS: the period may end no later than the last day whose orders are payable. */
  holdDays?: number;
}

/** A line booked on a day some payout of the group covers (Stockholm days, as payout periods are). */
export const inPaidPeriod = (groupId: number | SQLWrapper) =>
  sql`exists (select 1 from ${payouts} p where p.group_id = ${groupId}
              and (${orderLines.bookedAt} at time zone 'Europe/Stockholm')::date between p.period_from and p.period_to)`;

/**
 * A refund or cancellation of a line an earlier payout settled (issue 30 point 4): a deduction
 * ('Avdrag'), carried to the group's next payout whatever day it is booked on, so that what is owed
 * back is settled at the next payout and not only once a period reaches its day.
 */
export const deductsFromPaidLine = () =>
  sql`exists (select 1 from ${orderLines} settled where settled.id = ${orderLines.reversesLineId} and settled.payout_id is not null)`;

export type CreatePayoutResult =
  { created: true; payoutId: number; commissionOre: number; autoArchived: boolean } | { created: false; reason: TPayoutNotCreatedReason };

/** Why a period may not end later while orders are in their holding period. */
export const holdingPeriodMessage = (holdDays: number, payableUntil: string) =>
  `Till-datum kan vara högst ${payableUntil}: köp efter det är väntande, eftersom köparen har ${holdDays} dagars ångerrätt.`;

/**
 * Settles into one new payout every unsettled order line of a group booked inside the period, and
 * every unsettled line booked before it on a day an earlier payout of the group covered: a
 * correction of that payout (a cancellation or refund after it was paid, an order that arrived
 * late, one assigned by hand; decision 065). A line booked before the period on a day no payout
 * covered waits for a payout of its own period. A refund or cancellation of a line a payout settled is
 * a deduction, taken whatever its day (deductsFromPaidLine). Under a holding period the period ends
 * no later than the last payable day, so every line it takes is payable. The group row lock serialises every settlement of
 * the group, so of two requests for overlapping periods the second sees the first one's lines as
 * settled; the `payout_id is null` guard on the update makes a line settle at most once even so.
 */
export async function createPayout(db: Db | Tx, options: CreatePayoutOptions): Promise<CreatePayoutResult> {
  if (options.from > options.to) throw fieldError('VALIDATION', 'to', 'Från-datum kan inte vara efter Till-datum.');
  const payableUntil = lastPayableDay(options.holdDays ?? 0);
  if (payableUntil !== null && options.to > payableUntil)
    throw fieldError('VALIDATION', 'to', holdingPeriodMessage(options.holdDays ?? 0, payableUntil));
  const periodStart = stockholmDayStart(options.from);
  const periodEnd = stockholmDayStart(options.to, 1);
  const inPeriod = and(
    eq(orderLines.groupId, options.groupId),
    or(
      and(lt(orderLines.bookedAt, periodEnd), or(gte(orderLines.bookedAt, periodStart), inPaidPeriod(options.groupId))),
      deductsFromPaidLine(),
    ),
  );

  return db.transaction(async (tx) => {
    const [group] = await tx
      .select({ id: groups.id, archived: groups.archived })
      .from(groups)
      .where(eq(groups.id, options.groupId))
      .for('update');
    if (!group) throw new AppError('NOT_FOUND', 'Gruppen finns inte');

    const unsettled = await tx
      .select({
        id: orderLines.id,
        orderId: orderLines.orderId,
        kind: orderLines.kind,
        amountOre: orderLines.amountOre,
        commissionOre: orderLines.commissionOre,
      })
      .from(orderLines)
      .where(and(inPeriod, isNull(orderLines.payoutId)));
    if (unsettled.length === 0) {
      const [anyLine] = await tx.select({ id: orderLines.id }).from(orderLines).where(inPeriod).limit(1);
      return { created: false, reason: anyLine ? 'no_items_unpaid' : 'no_orders_in_range' };
    }

    const totals = {
      ordersCount: ordersCountedInPayout(unsettled).orders.size,
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
