import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { memberships } from '../../db/schema.js';
import { forbidden } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';
import { actsForGroup } from './group-admin-condition.js';

/**
 * Marks a pupil as having protected personal data (skyddade personuppgifter), or removes the mark.
 * Only the group's admin or a superadmin may: the condition is inside the update's WHERE, together
 * with the membership being in that group, and the audit entry is written in the same transaction
 * (as the leaderboard setting does). The trigger of migration 0014 renews the group's leaderboard
 * version, so the pupil leaves every cached leaderboard at once.
 */
export async function setProtectedIdentity(
  db: Db,
  options: { actorUserId: number; groupId: number; membershipId: number; protected: boolean },
): Promise<{ protected: boolean }> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(memberships)
      .set({ protectedIdentity: options.protected })
      .where(
        and(
          eq(memberships.id, options.membershipId),
          eq(memberships.groupId, options.groupId),
          actsForGroup(tx, options.actorUserId, options.groupId),
        ),
      )
      .returning({ protected: memberships.protectedIdentity, userId: memberships.userId });
    // A membership of another group, or one that does not exist, is refused the same way.
    if (!updated) throw forbidden('Endast gruppens administratörer kan markera skyddade personuppgifter');
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'membership.protected_identity',
      targetType: 'membership',
      targetId: options.membershipId,
      details: { group_id: options.groupId, user_id: updated.userId, protected: updated.protected },
    });
    return { protected: updated.protected };
  });
}
