import { and, eq, exists, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { memberships, users } from '../../db/schema.js';

/**
 * The actor acts for this group as its admin: an admin membership of that very group, or a
 * superadmin. Every group admin's action puts it in the WHERE of the query that reads or changes
 * the group's rows, so that the permission and the rows are one statement. `superadmin: false`
 * is for a choice the group's own admin alone makes (the leaderboard setting, spec §6).
 */
export function actsForGroup(db: Db | Tx, actorUserId: number, groupId: number, options: { superadmin?: boolean } = {}) {
  const groupAdmin = exists(
    db
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.groupId, groupId), eq(memberships.userId, actorUserId), eq(memberships.role, 'admin'))),
  );
  if (options.superadmin === false) return groupAdmin;
  return or(
    groupAdmin,
    exists(
      db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, actorUserId), eq(users.isSuperadmin, true))),
    ),
  );
}
