import { eq } from 'drizzle-orm';
import type { TGroupTotalsResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, memberships, orders } from '../../db/schema.js';
import { oreToSek } from '../../lib/money.js';
import type { AuthUser } from '../../plugins/auth.js';
import { activeMembershipCondition } from './active-membership.js';
import { orderSums } from './order-sums.js';

/** The active group's totals over the orders attributed to it, in one query. */
export async function getGroupTotals(db: Db, options: { user: AuthUser }): Promise<TGroupTotalsResponse> {
  const { user } = options;
  const row =
    user.activeGroupId === null
      ? undefined
      : (
          await db
            .select({ leaderboardVisible: groups.leaderboardVisible, ...orderSums() })
            .from(memberships)
            .innerJoin(groups, eq(groups.id, memberships.groupId))
            .leftJoin(orders, eq(orders.groupId, groups.id))
            .where(activeMembershipCondition({ id: user.id, activeGroupId: user.activeGroupId }))
            .groupBy(groups.id)
        )[0];

  if (!row) return { show_leaderboard: false, totals: { total_sales: 0, total_commission: 0, orders_count: 0 } };
  return {
    show_leaderboard: row.leaderboardVisible,
    totals: { total_sales: oreToSek(row.salesOre), total_commission: oreToSek(row.commissionOre), orders_count: row.ordersCount },
  };
}
