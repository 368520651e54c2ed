import { eq } from 'drizzle-orm';
import { ZLeaderboardResponseSchema, type TLeaderboardResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { membershipFigures, memberships, users } from '../../db/schema.js';
import { oreToSek } from '../../lib/money.js';
import type { LeaderboardCache } from './leaderboard-cache.js';
import type { SellerView } from './seller-view.js';
import { membershipRollupSums } from './order-sums.js';

const swedishNames = new Intl.Collator('sv-SE');

const HIDDEN = JSON.stringify({ group: { leaderboard_visible: false }, items: [] } satisfies TLeaderboardResponse);

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

/**
 * The active group's leaderboard as the answer's JSON text (spec §7 leaderboard-mine). Who may
 * see it is decided on every request from the live rows (the seller view); the rows themselves
 * come from the cache while the group's figures version is unchanged.
 */
export async function getGroupLeaderboard(db: Db, options: { view: SellerView; cache: LeaderboardCache }): Promise<string> {
  const { membership } = options.view;
  // Spec §6: admins always see it; a seller gets nothing while it is hidden, not just a hint to hide it.
  const version = membership?.group.figuresVersion;
  if (!membership || version === null || version === undefined) return HIDDEN;
  const { group } = membership;
  if (!group.leaderboardVisible && membership.role !== 'admin') return HIDDEN;
  const items = await options.cache.get(group.id, version, () => loadLeaderboardItems(db, group.id));
  return `{"group":{"leaderboard_visible":${group.leaderboardVisible}},"items":${items}}`;
}
