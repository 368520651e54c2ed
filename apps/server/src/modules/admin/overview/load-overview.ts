import { and, count, isNotNull, sql } from 'drizzle-orm';
import type { TAdminOverviewQuery, TAdminOverviewResponse } from '@saljportalen/contract';
import type { Db } from '../../../db/client.js';
import { groups, memberships, orders } from '../../../db/schema.js';
import { oreToSek } from '../../../lib/money.js';
import { orderSums } from '../../seller/order-sums.js';
import { orderedWithin } from '../../sellers/seller-rows.js';

/**
 * Spec §3 admin overview. The sums cover the orders attributed to a group, so they equal the sum
 * of every group's totals; unattributed orders are nobody's sales until someone assigns them.
 */
export async function loadOverview(db: Db, query: TAdminOverviewQuery): Promise<TAdminOverviewResponse> {
  const [groupCounts] = await db
    .select({
      active: sql<number>`count(*) filter (where not ${groups.archived})`.mapWith(Number),
      archived: sql<number>`count(*) filter (where ${groups.archived})`.mapWith(Number),
    })
    .from(groups);
  const [sellers] = await db.select({ total: count() }).from(memberships);
  const [figures] = await db
    .select(orderSums())
    .from(orders)
    .where(and(isNotNull(orders.groupId), orderedWithin(query)));
  return {
    active_groups: groupCounts?.active ?? 0,
    archived_groups: groupCounts?.archived ?? 0,
    sellers_total: sellers?.total ?? 0,
    total_sales: oreToSek(figures?.salesOre ?? 0),
    total_commission: oreToSek(figures?.commissionOre ?? 0),
    orders_count: figures?.ordersCount ?? 0,
  };
}
