import { and, eq, gte, isNotNull, sql } from 'drizzle-orm';
import { SALES_PER_DAY_MAX_DAYS, type TSalesPerDayResponse, type TSalesPerWeekResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, orders } from '../../db/schema.js';
import {
  addCalendarDays,
  calendarDaysBetween,
  isoWeekLabel,
  isoWeekMonday,
  STOCKHOLM,
  stockholmDate,
  stockholmDayStart,
} from '../../lib/dates.js';
import { oreToSek } from '../../lib/money.js';
import { orderSums } from './order-sums.js';

/**
 * Sales over time (issue 20, point 7): class totals per Stockholm day and every group's per ISO
 * week, summed from the orders themselves by the figure rules of `orderSums` (net of refunds and
 * cancellations, counted by the day the order was placed, as a period's figures are). A group's
 * days therefore add up to its total. No pupil is read: who sold, and whether they were visible
 * on a leaderboard, changes nothing here.
 */

/** The Stockholm calendar day an order was placed, as YYYY-MM-DD text. */
const stockholmDay = sql<string>`to_char(${orders.orderedAt} at time zone ${sql.raw(`'${STOCKHOLM}'`)}, 'YYYY-MM-DD')`;

/**
 * A group's net sales and commission per Stockholm day over its campaign (the commission is what
 * its goal is measured in, decision 043): from its creation or first order,
 * whichever is earlier, to the goal's end date or today (or its last order, if later), every day
 * listed, 0 where nothing sold. Null for a group that does not exist.
 */
export async function groupSalesPerDay(db: Db, groupId: number, now = new Date()): Promise<TSalesPerDayResponse | null> {
  const [group] = await db
    .select({ createdAt: groups.createdAt, goalOre: groups.goalOre, goalEndsOn: groups.goalEndsOn })
    .from(groups)
    .where(eq(groups.id, groupId));
  if (!group) return null;
  // Read through orders_group_ordered_idx: one group's orders, one row per day that sold.
  const rows = await db
    .select({ day: stockholmDay, ...orderSums() })
    .from(orders)
    .where(eq(orders.groupId, groupId))
    .groupBy(stockholmDay)
    .orderBy(stockholmDay);

  const today = stockholmDate(now);
  const created = stockholmDate(group.createdAt);
  const firstSale = rows[0]?.day;
  const lastSale = rows.at(-1)?.day;
  const start = firstSale && firstSale < created ? firstSale : created;
  const campaignEnd = group.goalEndsOn && group.goalEndsOn < today ? group.goalEndsOn : today;
  let to = lastSale && lastSale > campaignEnd ? lastSale : campaignEnd;
  if (to < start) to = start;
  // A long campaign shows its last days; what sold before them is carried in `earlier_sales`.
  const from = calendarDaysBetween(start, to) >= SALES_PER_DAY_MAX_DAYS ? addCalendarDays(to, 1 - SALES_PER_DAY_MAX_DAYS) : start;

  const byDay = new Map(rows.map((row) => [row.day, row]));
  const earlier = { salesOre: 0, commissionOre: 0 };
  const total = { salesOre: 0, commissionOre: 0 };
  for (const row of rows) {
    total.salesOre += row.salesOre;
    total.commissionOre += row.commissionOre;
    if (row.day < from) {
      earlier.salesOre += row.salesOre;
      earlier.commissionOre += row.commissionOre;
    }
  }
  const days: TSalesPerDayResponse['days'] = [];
  for (let day = from; day <= to; day = addCalendarDays(day, 1)) {
    const row = byDay.get(day);
    days.push({
      date: day,
      sales: oreToSek(row?.salesOre ?? 0),
      commission: oreToSek(row?.commissionOre ?? 0),
      orders_count: row?.ordersCount ?? 0,
    });
  }
  return {
    group_id: groupId,
    from,
    to,
    ends_on: group.goalEndsOn,
    goal: group.goalOre === null ? null : oreToSek(group.goalOre),
    earlier_sales: oreToSek(earlier.salesOre),
    earlier_commission: oreToSek(earlier.commissionOre),
    total_sales: oreToSek(total.salesOre),
    total_commission: oreToSek(total.commissionOre),
    days,
  };
}

/**
 * Every group's net sales and commission per ISO week (Monday to Sunday, Stockholm days), the last `weeks`
 * weeks with this one, oldest first, 0 where nothing sold. Orders nobody is attributed to count
 * for no group until assigned, as on the overview.
 */
export async function salesPerWeek(db: Db, options: { weeks: number; now?: Date }): Promise<TSalesPerWeekResponse> {
  const thisMonday = isoWeekMonday(stockholmDate(options.now ?? new Date()));
  const firstMonday = addCalendarDays(thisMonday, -7 * (options.weeks - 1));
  const weekStart = sql<string>`to_char(date_trunc('week', ${orders.orderedAt} at time zone ${sql.raw(`'${STOCKHOLM}'`)}), 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      startsOn: weekStart,
      ...orderSums(),
      groupsCount: sql<number>`count(distinct ${orders.groupId})`.mapWith(Number),
    })
    .from(orders)
    .where(and(isNotNull(orders.groupId), gte(orders.orderedAt, stockholmDayStart(firstMonday))))
    .groupBy(weekStart);
  const byWeek = new Map(rows.map((row) => [row.startsOn, row]));
  const weeks: TSalesPerWeekResponse['weeks'] = [];
  for (let monday = firstMonday; monday <= thisMonday; monday = addCalendarDays(monday, 7)) {
    const row = byWeek.get(monday);
    weeks.push({
      week: isoWeekLabel(monday),
      starts_on: monday,
      sales: oreToSek(row?.salesOre ?? 0),
      commission: oreToSek(row?.commissionOre ?? 0),
      orders_count: row?.ordersCount ?? 0,
      groups_count: row?.groupsCount ?? 0,
    });
  }
  return { weeks };
}
