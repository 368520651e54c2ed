import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { membershipFigures, memberships, users } from '../../db/schema.js';
import { rollupFigures } from './order-sums.js';

/**
 * Every member of the group with their all-time figures from the rollups, in no particular order;
 * a pupil with protected personal data is on no leaderboard (issue 22).
 */
export async function selectLeaderboardRows(db: Db, groupId: number) {
  return db
    .select({ userId: memberships.userId, sellerName: users.fullName, ...rollupFigures(membershipFigures) })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(membershipFigures, eq(membershipFigures.membershipId, memberships.id))
    .where(and(eq(memberships.groupId, groupId), eq(memberships.protectedIdentity, false)));
}
