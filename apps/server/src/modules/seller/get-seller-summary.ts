import { eq } from 'drizzle-orm';
import type { TMeSummaryResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, membershipFigures, memberships } from '../../db/schema.js';
import { oreToSek } from '../../lib/money.js';
import type { AuthUser } from '../../plugins/auth.js';
import { activeMembershipCondition, personalLink, placeholders } from './active-membership.js';
import { prepared } from '../../db/prepared.js';
import { membershipRollupSums } from './order-sums.js';

const summaryQuery = prepared((db) =>
  db
    .select({
      role: memberships.role,
      linkCode: memberships.linkCode,
      group: { id: groups.id, name: groups.name, code: groups.code, leaderboardVisible: groups.leaderboardVisible },
      ...membershipRollupSums(),
    })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .leftJoin(membershipFigures, eq(membershipFigures.membershipId, memberships.id))
    .where(activeMembershipCondition(placeholders))
    .prepare('seller_summary'),
);

/** The dashboard's personal figures for the user's active group, in one query of one row (the membership's rollup). */
export async function getSellerSummary(db: Db, options: { user: AuthUser; publicUrl: string }): Promise<TMeSummaryResponse> {
  const { user } = options;
  const row =
    user.activeGroupId === null ? undefined : (await summaryQuery(db).execute({ userId: user.id, groupId: user.activeGroupId }))[0];

  if (!row) {
    return {
      user: { id: user.id, full_name: user.fullName, role: null },
      group_hint: null,
      personal: { total_sales: 0, total_commission: 0, personal_link: null, orders_count: 0 },
    };
  }
  return {
    user: { id: user.id, full_name: user.fullName, role: row.role },
    group_hint: { id: row.group.id, name: row.group.name, code: row.group.code, leaderboard_visible: row.group.leaderboardVisible },
    personal: {
      total_sales: oreToSek(row.salesOre),
      total_commission: oreToSek(row.commissionOre),
      personal_link: personalLink(options.publicUrl, row.linkCode),
      orders_count: row.ordersCount,
    },
  };
}
