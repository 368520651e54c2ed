import { eq } from 'drizzle-orm';
import type { TLeaderboardResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { memberships, orders, users } from '../../db/schema.js';
import { oreToSek } from '../../lib/money.js';
import type { AuthUser } from '../../plugins/auth.js';
import { loadActiveMembership } from './active-membership.js';
import { orderSums } from './order-sums.js';

const swedishNames = new Intl.Collator('sv-SE');

/**
 * Every member of the active group with their sales, highest first and by name on a tie. The
 * database's collation differs between PGlite and PostgreSQL installs, so the (group-sized)
 * list is ordered here, where Swedish order (… Å Ä Ö) is the same everywhere.
 */
export async function getGroupLeaderboard(db: Db, options: { user: AuthUser }): Promise<TLeaderboardResponse> {
  const membership = await loadActiveMembership(db, options.user);
  if (!membership) return { group: { leaderboard_visible: false }, items: [] };

  const visible = membership.group.leaderboardVisible;
  // Spec §6: admins always see it; a seller gets nothing while it is hidden, not just a hint to hide it.
  if (!visible && membership.role !== 'admin') return { group: { leaderboard_visible: false }, items: [] };

  const rows = await db
    .select({ userId: memberships.userId, sellerName: users.fullName, ...orderSums() })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(orders, eq(orders.membershipId, memberships.id))
    .where(eq(memberships.groupId, membership.group.id))
    .groupBy(memberships.id, users.id);

  rows.sort((a, b) => b.salesOre - a.salesOre || swedishNames.compare(a.sellerName, b.sellerName) || a.userId - b.userId);
  return {
    group: { leaderboard_visible: visible },
    items: rows.map((row) => ({
      user_id: row.userId,
      seller_name: row.sellerName,
      sales: oreToSek(row.salesOre),
      commission: oreToSek(row.commissionOre),
    })),
  };
}
