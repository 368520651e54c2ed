import { and, eq, exists, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { memberships, users } from '../../db/schema.js';

/**
 * The actor may run this group's class list: an admin membership of that very group, or a
 * superadmin. Put in the WHERE of the query that reads or changes the group's rows, so that the
 * permission and the rows are one statement.
 */
export function actsForGroup(db: Db | Tx, actorUserId: number, groupId: number) {
  return or(
    exists(
      db
        .select({ id: memberships.id })
        .from(memberships)
        .where(and(eq(memberships.groupId, groupId), eq(memberships.userId, actorUserId), eq(memberships.role, 'admin'))),
    ),
    exists(
      db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, actorUserId), eq(users.isSuperadmin, true))),
    ),
  );
}
