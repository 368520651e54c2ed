import { and, eq, isNull } from 'drizzle-orm';
import type { TGroupMembersResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { memberships, users } from '../../db/schema.js';
import { forbidden } from '../../errors.js';
import { bySwedishName } from '../groups/swedish-order.js';
import { actsForGroup } from './group-admin-condition.js';

const refused = () => forbidden('Endast gruppens administratörer kan se klasslistan');

/**
 * The class's people with their protected-identity mark, for the group's admin (the dashboard's
 * group card) and a superadmin (the admin group detail). The admin area keeps the real names. An
 * erased account is no longer one of the class (issue 33 point 2): nothing of it is left to mark.
 */
export async function listClassMembers(db: Db, options: { actorUserId: number; groupId: number }): Promise<TGroupMembersResponse> {
  const rows = await db
    .select({
      id: memberships.id,
      userId: users.id,
      name: users.fullName,
      role: memberships.role,
      protectedIdentity: memberships.protectedIdentity,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.groupId, options.groupId), isNull(users.erasedAt), actsForGroup(db, options.actorUserId, options.groupId)));
  // No rows: not allowed, or a group that does not exist; told apart from an empty class below.
  if (rows.length === 0) {
    const [allowed] = await db
      .select({ ok: users.id })
      .from(users)
      .where(and(eq(users.id, options.actorUserId), actsForGroup(db, options.actorUserId, options.groupId)));
    if (!allowed) throw refused();
  }
  return {
    items: bySwedishName(rows).map((row) => ({
      membership_id: row.id,
      user_id: row.userId,
      full_name: row.name,
      role: row.role,
      protected_identity: row.protectedIdentity,
    })),
  };
}
