import { and, asc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TOutstandingPayoutsResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, orderLines } from '../../db/schema.js';
import { oreToSek, payoutAmountsOre } from '../../lib/money.js';

/**
 * 'Att reglera' on the payouts page (issue 19): per group, the unsettled lines that no ordinary
 * next payout is sure to settle. In a group that still sells, a refund or cancellation of a line
 * a payout already paid out is owed back; in an archived group every unsettled line counts (late
 * orders a superadmin assigned to it, refunds), since it may never get another payout. Groups whose
 * lines net to zero are left out. Highest amount owed back first, then the rest by name.
 */
export async function listOutstandingPayouts(db: Db): Promise<TOutstandingPayoutsResponse> {
  const reversed = alias(orderLines, 'reversed_line');
  const rows = await db
    .select({
      groupId: groups.id,
      groupName: groups.name,
      archived: groups.archived,
      linesCount: sql<number>`count(*)::int`,
      commissionOre: sql<string>`sum(${orderLines.commissionOre})::text`,
      // Stockholm days, as payout periods are (lib/dates.ts).
      periodFrom: sql<string>`(min(${orderLines.bookedAt}) at time zone 'Europe/Stockholm')::date::text`,
      periodTo: sql<string>`(max(${orderLines.bookedAt}) at time zone 'Europe/Stockholm')::date::text`,
    })
    .from(orderLines)
    .innerJoin(groups, eq(groups.id, orderLines.groupId))
    .leftJoin(reversed, eq(reversed.id, orderLines.reversesLineId))
    .where(and(isNull(orderLines.payoutId), or(eq(groups.archived, true), isNotNull(reversed.payoutId))))
    .groupBy(groups.id)
    .having(sql`sum(${orderLines.commissionOre}) <> 0`)
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
    };
  });
}
