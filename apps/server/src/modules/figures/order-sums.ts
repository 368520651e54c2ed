import { sql } from 'drizzle-orm';
import { groupFigures, membershipFigures, orders } from '../../db/schema.js';

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
  ordersCount: sql`count(*) filter (where ${orders.state} <> 'cancelled')`.mapWith(Number),
});

/**
 * The same figures as kept ready by the rollup triggers (migration 0004, docs/decisions/007):
 * one row per membership or group instead of every order. Without a date range every figure
 * comes from here; a range still sums the orders themselves.
 */
export const membershipRollupSums = () => ({
  salesOre: sql`coalesce(${membershipFigures.salesOre}, 0)`.mapWith(Number),
  commissionOre: sql`coalesce(${membershipFigures.commissionOre}, 0)`.mapWith(Number),
  ordersCount: sql`coalesce(${membershipFigures.ordersCount}, 0)`.mapWith(Number),
});

export const groupRollupSums = () => ({
  salesOre: sql`coalesce(${groupFigures.salesOre}, 0)`.mapWith(Number),
  commissionOre: sql`coalesce(${groupFigures.commissionOre}, 0)`.mapWith(Number),
  ordersCount: sql`coalesce(${groupFigures.ordersCount}, 0)`.mapWith(Number),
});
