import { and, isNotNull, sql } from 'drizzle-orm';
import type { TAdminOverviewQuery, TAdminOverviewResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groupFigures, groups, orders } from '../../db/schema.js';
import { oreToSek } from '../../lib/money.js';
import { orderedWithin, summedRollupFigures, summedSellers, sumOrders } from './order-sums.js';

/**
 * Spec §3 admin overview. The sums cover the orders attributed to a group, so they equal the sum
 * of every group's totals; unattributed orders are nobody's sales until someone assigns them.
 */
export async function loadOverview(db: Db, query: TAdminOverviewQuery): Promise<TAdminOverviewResponse> {
  // One row per group (the rollups), not one per membership and order; two scans, no join.
  const [groupCounts] = await db
    .select({
      active: sql<number>`(select count(*) from ${groups} where not ${groups.archived})`.mapWith(Number),
      archived: sql<number>`(select count(*) from ${groups} where ${groups.archived})`.mapWith(Number),
      sellers: summedSellers(),
      // Read from orders_unattributed_idx, a partial index of exactly these orders.
      unattributed: sql<number>`(select count(*) from ${orders} where ${orders.groupId} is null)`.mapWith(Number),
      ...summedRollupFigures(groupFigures),
    })
    .from(groupFigures);
  // A period is summed from the orders placed in it.
  const figures = query.from || query.to ? await sumOrders(db, and(isNotNull(orders.groupId), orderedWithin(query))) : groupCounts;
  return {
    active_groups: groupCounts?.active ?? 0,
    archived_groups: groupCounts?.archived ?? 0,
    sellers_total: groupCounts?.sellers ?? 0,
    total_sales: oreToSek(figures?.salesOre ?? 0),
    total_commission: oreToSek(figures?.commissionOre ?? 0),
    orders_count: figures?.ordersCount ?? 0,
    unattributed_orders: groupCounts?.unattributed ?? 0,
  };
}
