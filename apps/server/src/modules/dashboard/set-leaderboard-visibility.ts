import { and, eq, exists } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { groups, memberships } from '../../db/schema.js';
import { forbidden } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';

/**
 * Shows or hides a group's leaderboard. Only an admin membership of that very group may: a
 * superadmin who is not one is refused too, because the issue gives the choice to the group's
 * own admin (the teacher decides what the class sees); a superadmin who must step in adds
 * themselves as the group's admin, which leaves its own audit trail.
 */
export async function setLeaderboardVisibility(
  db: Db,
  options: { actorUserId: number; groupId: number; visible: boolean },
): Promise<{ visible: boolean }> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(groups)
      .set({ leaderboardVisible: options.visible })
      .where(
        and(
          eq(groups.id, options.groupId),
          exists(
            tx
              .select({ id: memberships.id })
              .from(memberships)
              .where(
                and(eq(memberships.groupId, options.groupId), eq(memberships.userId, options.actorUserId), eq(memberships.role, 'admin')),
              ),
          ),
        ),
      )
      .returning({ visible: groups.leaderboardVisible });
    // A group that does not exist is refused the same way, so the answer tells nothing about other groups.
    if (!updated) throw forbidden('Endast gruppens administratörer kan ändra topplistans synlighet');
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'group.leaderboard',
      targetType: 'group',
      targetId: options.groupId,
      details: { show_leaderboard: updated.visible },
    });
    return updated;
  });
}
