import { eq } from 'drizzle-orm';
import type { TGroupTotalsResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groupFigures, groups, memberships } from '../../db/schema.js';
import { oreToSek } from '../../lib/money.js';
import type { AuthUser } from '../../plugins/auth.js';
import { activeMembershipCondition, placeholders } from './active-membership.js';
import { prepared } from '../../db/prepared.js';
import { groupRollupSums } from './order-sums.js';

const totalsQuery = prepared((db) =>
  db
    .select({ leaderboardVisible: groups.leaderboardVisible, ...groupRollupSums() })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .leftJoin(groupFigures, eq(groupFigures.groupId, groups.id))
    .where(activeMembershipCondition(placeholders))
    .prepare('seller_group_totals'),
);

/** The active group's totals over the orders attributed to it, in one query of one row (the group's rollup). */
export async function getGroupTotals(db: Db, options: { user: AuthUser }): Promise<TGroupTotalsResponse> {
  const { user } = options;
  const row =
    user.activeGroupId === null ? undefined : (await totalsQuery(db).execute({ userId: user.id, groupId: user.activeGroupId }))[0];

  if (!row) return { show_leaderboard: false, totals: { total_sales: 0, total_commission: 0, orders_count: 0 } };
  return {
    show_leaderboard: row.leaderboardVisible,
    totals: { total_sales: oreToSek(row.salesOre), total_commission: oreToSek(row.commissionOre), orders_count: row.ordersCount },
  };
}
