import { and, eq, isNull, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { membershipFigures, memberships, users } from '../../db/schema.js';
import { rollupFigures } from './order-sums.js';

/**
 * Every member of the group with their all-time figures from the rollups, in no particular order.
 * A pupil still waiting for a guardian's consent is on no leaderboard (issue 22); approving moves
 * the group's figures version (`approveGuardianConsent`), so a cached leaderboard is made again.
 */
export async function selectLeaderboardRows(db: Db, groupId: number) {
  return db
    .select({ userId: memberships.userId, sellerName: users.fullName, ...rollupFigures(membershipFigures) })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(membershipFigures, eq(membershipFigures.membershipId, memberships.id))
    .where(and(eq(memberships.groupId, groupId), or(isNull(users.guardianConsent), ne(users.guardianConsent, 'pending'))));
}
