import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { groups, memberships } from '../../db/schema.js';
import type { AuthUser } from '../../lib/current-user.js';

export type ActiveGroupUser = Pick<AuthUser, 'id' | 'activeGroupId'>;

/**
 * The condition for the user's membership in their active group. Joining through it, not
 * trusting users.active_group_id alone, makes a group the user has left count as none.
 */
export function activeMembershipCondition(user: ActiveGroupUser & { activeGroupId: number }) {
  return and(eq(memberships.userId, user.id), eq(memberships.groupId, user.activeGroupId));
}

export interface ActiveMembership {
  membershipId: number;
  role: 'seller' | 'admin';
  linkCode: string;
  /** Skyddade personuppgifter: only the alias outside the admin area. */
  protectedIdentity: boolean;
  /** `goalPurpose`: what the class collects for, set with its goal (issue 20), or null. */
  group: { id: number; name: string; code: string; leaderboardVisible: boolean; goalPurpose: string | null };
}

export async function loadActiveMembership(db: Db, user: ActiveGroupUser): Promise<ActiveMembership | null> {
  if (user.activeGroupId === null) return null;
  const [row] = await db
    .select({
      membershipId: memberships.id,
      role: memberships.role,
      linkCode: memberships.linkCode,
      protectedIdentity: memberships.protectedIdentity,
      group: {
        id: groups.id,
        name: groups.name,
        code: groups.code,
        leaderboardVisible: groups.leaderboardVisible,
        goalPurpose: groups.goalPurpose,
      },
    })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(activeMembershipCondition({ id: user.id, activeGroupId: user.activeGroupId }));
  return row ?? null;
}

/** The personal sales link that `GET /s/{code}` records and forwards to the shop (DESIGN §3). */
export const personalLink = (publicUrl: string, linkCode: string) => `${publicUrl}/s/${encodeURIComponent(linkCode)}`;
