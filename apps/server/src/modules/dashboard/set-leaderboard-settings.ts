import { and, eq, sql } from 'drizzle-orm';
import type { TLeaderboardMode } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups } from '../../db/schema.js';
import { forbidden } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';
import { renewLeaderboardVersion } from '../figures/leaderboard-version.js';
import { actsForGroup } from '../group-members/group-admin-condition.js';

/**
 * Shows or hides a group's leaderboard (spec §6) and chooses its mode (issue 20). Only an admin
 * membership of that very group may: a superadmin who is not one is refused too, because the
 * issue gives the choice to the group's own admin (the teacher decides what the class sees); a
 * superadmin who must step in adds themselves as the group's admin, which leaves its own audit trail.
 */
export async function setLeaderboardSettings(
  db: Db,
  options: { actorUserId: number; groupId: number; visible?: boolean; mode?: TLeaderboardMode },
): Promise<{ visible: boolean; mode: TLeaderboardMode }> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(groups)
      // Set to itself when not given, so that the update still finds (and authorises) the row.
      .set({
        leaderboardVisible: options.visible ?? sql`${groups.leaderboardVisible}`,
        leaderboardMode: options.mode ?? sql`${groups.leaderboardMode}`,
      })
      .where(and(eq(groups.id, options.groupId), actsForGroup(tx, options.actorUserId, options.groupId, { superadmin: false })))
      .returning({ visible: groups.leaderboardVisible, mode: groups.leaderboardMode });
    // A group that does not exist is refused the same way, so the answer tells nothing about other groups.
    if (!updated) throw forbidden('Endast gruppens administratörer kan ändra topplistans synlighet');
    if (options.mode !== undefined) {
      // The mode changes what every member's leaderboard shows: a new version of the group's
      // figures tells their open pages (the live streams) to read it anew.
      await renewLeaderboardVersion(tx, options.groupId);
    }
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'group.leaderboard',
      targetType: 'group',
      targetId: options.groupId,
      details: {
        ...(options.visible === undefined ? {} : { show_leaderboard: updated.visible }),
        ...(options.mode === undefined ? {} : { leaderboard_mode: updated.mode }),
      },
    });
    return updated;
  });
}
