import { sql } from 'drizzle-orm';
import { orders } from '../../db/schema.js';

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
