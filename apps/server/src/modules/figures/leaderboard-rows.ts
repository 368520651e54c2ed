import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { groupFigures, membershipFigures, memberships, users } from '../../db/schema.js';
import { rollupFigures } from './order-sums.js';

/**
 * Every member of the group with their all-time figures from the rollups, in no particular order,
 * and what decides where they may show: their role (pupils are the sellers), a protected identity
 * or a pending guardian consent (on no leaderboard), an erased account (no longer a pupil of the class).
 */
export async function selectLeaderboardRows(db: Db, groupId: number) {
  return db
    .select({
      userId: memberships.userId,
      sellerName: users.fullName,
      role: memberships.role,
      protectedIdentity: memberships.protectedIdentity,
      guardianConsent: users.guardianConsent,
      erasedAt: users.erasedAt,
      ...rollupFigures(membershipFigures),
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(membershipFigures, eq(membershipFigures.membershipId, memberships.id))
    .where(eq(memberships.groupId, groupId));
}

/**
 * A new version of the group's figures, for a change of what its leaderboard shows that no
 * trigger sees (its mode): every process's cached leaderboard of the group is then read anew.
 */
export async function renewLeaderboardVersion(tx: Tx, groupId: number): Promise<void> {
  await tx
    .update(groupFigures)
    .set({ version: sql`nextval('group_figures_version_seq')` })
    .where(eq(groupFigures.groupId, groupId));
}

/** A new version of the leaderboards of every group the user is a member of (a pupil's consent changed). */
export async function renewLeaderboardVersionsOfMember(tx: Tx, userId: number): Promise<void> {
  const groupIds = tx.select({ groupId: memberships.groupId }).from(memberships).where(eq(memberships.userId, userId));
  await tx
    .update(groupFigures)
    .set({ version: sql`nextval('group_figures_version_seq')` })
    .where(inArray(groupFigures.groupId, groupIds));
}
