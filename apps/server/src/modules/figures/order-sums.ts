import { and, count, gte, lt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { groupFigures, orders } from '../../db/schema.js';
import { stockholmDayStart } from '../../lib/dates.js';

/**
 * The figure rules every capability shares: sales and commission are the orders' net sums
 * (refund and cancellation lines already deducted), the count leaves cancelled orders out.
 * Written for a left join, where a member without orders gives one row of nulls: the sums
 * fall back to 0 and the filter drops that row from the count. Only the amount and state
 * columns are read, so an index that includes them answers without visiting the table.
 */
export const orderSums = () => ({
  salesOre: sql`coalesce(sum(${orders.subtotalOre}), 0)`.mapWith(Number),
  commissionOre: sql`coalesce(sum(${orders.commissionOre}), 0)`.mapWith(Number),
  ordersCount: sql`count(*) filter (where ${countedOrder()})`.mapWith(Number),
});

/**
 * The one definition of an order that counts (issue 30): one that is not cancelled as a whole. The
 * dashboards, the admin pages, the CSV export and the payouts count by it; the rollup triggers of
 * migration 0004 say the same in SQL (`state <> 'cancelled'`).
 */
export const countsAsOrder = (state: string): boolean => state !== 'cancelled';

/**
 * The same rule for the lines one payout settles, which never change once settled: an order counts
 * in the payout that takes its sale, unless that payout also takes its cancellation. So a payout's
 * 'Ordrar' stays what it was when the order is cancelled later (the cancellation is a correction
 * in the next payout, which counts no order for it), and a payout of refunds, corrections or moved
 * sales only counts no order twice. Returns the counted orders, of each membership when asked.
 */
export function ordersCountedInPayout<T extends { orderId: number; kind: string; membershipId?: number | null }>(
  lines: T[],
): {
  orders: Set<number>;
  ofMembership: (membershipId: number | null) => Set<number>;
} {
  const cancelled = new Set(lines.filter((line) => line.kind === 'cancellation').map((line) => line.orderId));
  const sales = lines.filter((line) => line.kind === 'sale' && !cancelled.has(line.orderId));
  return {
    orders: new Set(sales.map((line) => line.orderId)),
    ofMembership: (membershipId) =>
      new Set(sales.filter((line) => (line.membershipId ?? null) === membershipId).map((line) => line.orderId)),
  };
}

/** countsAsOrder, in SQL over `orders`. */
export const countedOrder = () => sql`${orders.state} <> 'cancelled'`;

/** Where a row's three figures are: a rollup table (membershipFigures, groupFigures), or a subquery of orderSums. */
export interface FigureColumns {
  salesOre: SQLWrapper;
  commissionOre: SQLWrapper;
  ordersCount: SQLWrapper;
}

/**
 * The figures of one row, as kept ready by the rollup triggers (migration 0004, docs/decisions/007)
 * or summed for a period: one row per membership or group instead of every order, read as numbers,
 * 0 where a left join found no row. The one way a rollup is read.
 */
export const rollupFigures = (source: FigureColumns) => ({
  salesOre: sql<number>`coalesce(${source.salesOre}, 0)`.mapWith(Number),
  commissionOre: sql<number>`coalesce(${source.commissionOre}, 0)`.mapWith(Number),
  ordersCount: sql<number>`coalesce(${source.ordersCount}, 0)`.mapWith(Number),
});

/** The figures of many rollup rows added up: every group's, the same sums as over all attributed orders. */
export const summedRollupFigures = (source: FigureColumns) => ({
  salesOre: sql<number>`coalesce(sum(${source.salesOre}), 0)`.mapWith(Number),
  commissionOre: sql<number>`coalesce(sum(${source.commissionOre}), 0)`.mapWith(Number),
  ordersCount: sql<number>`coalesce(sum(${source.ordersCount}), 0)`.mapWith(Number),
});

/** The members of the groups read (every membership counts, admins included), by the groups' rollups. */
export const summedSellers = () => sql<number>`coalesce(sum(${groupFigures.sellersCount}), 0)`.mapWith(Number);

/** Orders placed on the Stockholm days [from, to]: `x >= dayStart(from) and x < dayStart(to, 1)`. */
export function orderedWithin(range: { from?: string; to?: string }): SQL | undefined {
  return and(
    range.from ? gte(orders.orderedAt, stockholmDayStart(range.from)) : undefined,
    range.to ? lt(orders.orderedAt, stockholmDayStart(range.to, 1)) : undefined,
  );
}

/** The figures of the orders that match `where`, summed from the orders themselves, and how many orders match. */
export async function sumOrders(
  db: Db,
  where: SQL | undefined,
): Promise<{ salesOre: number; commissionOre: number; ordersCount: number; total: number }> {
  const [summary] = await db
    .select({ ...orderSums(), total: count() })
    .from(orders)
    .where(where);
  return summary ?? { salesOre: 0, commissionOre: 0, ordersCount: 0, total: 0 };
}
