import { eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { groupFigures, memberships } from '../../db/schema.js';

/**
 * A new version of the group's figures, for a change of what its leaderboard shows that no
 * trigger sees (its mode): the live streams tell the group's members to read their figures anew.
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
