import { eq } from 'drizzle-orm';
import { ZLeaderboardResponseSchema, type TLeaderboardResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groupFigures, groups, membershipFigures, memberships, users } from '../../db/schema.js';
import { oreToSek } from '../../lib/money.js';
import type { AuthUser } from '../../plugins/auth.js';
import { activeMembershipCondition, placeholders } from './active-membership.js';
import { prepared } from '../../db/prepared.js';
import type { LeaderboardCache } from './leaderboard-cache.js';
import { membershipRollupSums } from './order-sums.js';

const swedishNames = new Intl.Collator('sv-SE');

const hidden = (): TLeaderboardResponse => ({ group: { leaderboard_visible: false }, items: [] });

/**
 * Every member of the group with their sales, highest first and by name on a tie, as the JSON
 * of the answer's `items`. The database's collation differs between PGlite and PostgreSQL
 * installs, so the (group-sized) list is ordered here, where Swedish order (… Å Ä Ö) is the same
 * everywhere. Checked against the contract once, when it is made.
 */
async function loadLeaderboardItems(db: Db, groupId: number): Promise<string> {
  const rows = await db
    .select({ userId: memberships.userId, sellerName: users.fullName, ...membershipRollupSums() })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(membershipFigures, eq(membershipFigures.membershipId, memberships.id))
    .where(eq(memberships.groupId, groupId));
  rows.sort((a, b) => b.salesOre - a.salesOre || swedishNames.compare(a.sellerName, b.sellerName) || a.userId - b.userId);
  const items = ZLeaderboardResponseSchema.shape.items.parse(
    rows.map((row) => ({
      user_id: row.userId,
      seller_name: row.sellerName,
      sales: oreToSek(row.salesOre),
      commission: oreToSek(row.commissionOre),
    })),
  );
  return JSON.stringify(items);
}

/** The caller's membership in the active group, the group's visibility and its figures version. */
const membershipQuery = prepared((db) =>
  db
    .select({ role: memberships.role, groupId: groups.id, visible: groups.leaderboardVisible, version: groupFigures.version })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .innerJoin(groupFigures, eq(groupFigures.groupId, groups.id))
    .where(activeMembershipCondition(placeholders))
    .prepare('seller_leaderboard_membership'),
);

/**
 * The active group's leaderboard as the answer's JSON text (spec §7 leaderboard-mine). Who may
 * see it is decided on every request from the live rows; the rows themselves come from the
 * cache while the group's figures version is unchanged.
 */
export async function getGroupLeaderboard(db: Db, options: { user: AuthUser; cache: LeaderboardCache }): Promise<string> {
  const { user } = options;
  if (user.activeGroupId === null) return JSON.stringify(hidden());
  const [membership] = await membershipQuery(db).execute({ userId: user.id, groupId: user.activeGroupId });
  // Spec §6: admins always see it; a seller gets nothing while it is hidden, not just a hint to hide it.
  if (!membership || (!membership.visible && membership.role !== 'admin')) return JSON.stringify(hidden());
  const items = await options.cache.get(membership.groupId, membership.version, () => loadLeaderboardItems(db, membership.groupId));
  return `{"group":{"leaderboard_visible":${membership.visible}},"items":${items}}`;
}
