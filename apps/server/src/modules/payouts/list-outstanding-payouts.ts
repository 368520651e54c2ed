import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TOutstandingPayoutsResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, orderLines } from '../../db/schema.js';
import { oreToSek, payoutAmountsOre } from '../../lib/money.js';
import { lastPayableDay, stockholmDate } from '../../lib/dates.js';
import { deductsFromPaidLine, inPaidPeriod } from './create-payout.js';

/**
 * 'Att reglera' on the payouts page (issues 19, 30): the groups with lines no ordinary next payout
 * is sure to settle, or that correct one already made. In a group that still sells, a refund or
 * cancellation of a line a payout paid out (owed back), or a line of a day a payout covered (a late
 * order, one assigned by hand; decision 065); in an archived group every unsettled line, since it
 * may never get another payout. A row shows all of the group's unsettled lines, from the first day to the last, which is
 * exactly what its 'Avräkna' settles (a payout for those days takes them all, the corrections
 * among them). A group whose campaign has ended (issue 31) has its row too, from the day after its
 * last: it is the campaign's payout proposal. Groups whose lines net to zero are left out. Highest amount
 * owed back first, then the rest by name.
 */
export async function listOutstandingPayouts(db: Db, options: { holdDays: number }): Promise<TOutstandingPayoutsResponse> {
  const reversed = alias(orderLines, 'reversed_line');
  const bookedDay = sql`(${orderLines.bookedAt} at time zone 'Europe/Stockholm')::date`;
  // Under a holding period (issue 30 point 4) a row is what is payable: the lines of days up to the
  // last payable one, and the deductions, which a payout takes whatever their day. Its period ends
  // on the last payable day at the latest, as a payout's must.
  const payableUntil = lastPayableDay(options.holdDays);
  const today = stockholmDate(new Date());
  const periodTo =
    payableUntil === null ? sql<string>`max(${bookedDay})::text` : sql<string>`least(max(${bookedDay}), ${payableUntil}::date)::text`;
  const rows = await db
    .select({
      groupId: groups.id,
      groupName: groups.name,
      archived: groups.archived,
      campaignStartsOn: groups.campaignStartsOn,
      campaignEndsOn: groups.campaignEndsOn,
      campaignEnded: sql<boolean>`${groups.campaignEndsOn} < ${today}::date`,
      linesCount: sql<number>`count(*)::int`,
      commissionOre: sql<string>`sum(${orderLines.commissionOre})::text`,
      // Stockholm days, as payout periods are (lib/dates.ts).
      periodFrom: sql<string>`least(min(${bookedDay}), ${periodTo}::date)::text`,
      periodTo,
    })
    .from(orderLines)
    .innerJoin(groups, eq(groups.id, orderLines.groupId))
    .leftJoin(reversed, eq(reversed.id, orderLines.reversesLineId))
    .where(
      and(
        isNull(orderLines.payoutId),
        payableUntil === null ? undefined : or(sql`${bookedDay} <= ${payableUntil}::date`, deductsFromPaidLine()),
      ),
    )
    .groupBy(groups.id)
    .having(
      sql`(${groups.archived} or ${groups.campaignEndsOn} < ${today}::date or bool_or(${reversed.payoutId} is not null) or bool_or(${inPaidPeriod(orderLines.groupId)}))
          and sum(${orderLines.commissionOre}) <> 0`,
    )
    .orderBy(sql`sum(${orderLines.commissionOre})`, asc(groups.name));
  return rows.map((row) => {
    const amounts = payoutAmountsOre(Number(row.commissionOre));
    return {
      group_id: row.groupId,
      group_name: row.groupName,
      archived: row.archived,
      lines_count: row.linesCount,
      period_from: row.periodFrom,
      period_to: row.periodTo,
      total_commission: oreToSek(amounts.commissionOre),
      rounding: oreToSek(amounts.roundingOre),
      amount_to_pay: oreToSek(amounts.toPayOre),
      ended_campaign:
        row.campaignEnded && row.campaignStartsOn && row.campaignEndsOn
          ? { starts_on: row.campaignStartsOn, ends_on: row.campaignEndsOn }
          : null,
    };
  });
}
