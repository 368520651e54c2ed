import { eq } from 'drizzle-orm';
import type { TAdminGroupMembersResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, memberships, users } from '../../db/schema.js';
import { groupNotFound } from './group-queries.js';
import { bySwedishName } from './swedish-order.js';

/** Everyone in the group, admins included, by name: the people an order can be assigned to. */
export async function listGroupMembers(db: Db, groupId: number): Promise<TAdminGroupMembersResponse> {
  const [group] = await db.select({ id: groups.id }).from(groups).where(eq(groups.id, groupId));
  if (!group) throw groupNotFound();
  const rows = await db
    .select({
      id: memberships.id,
      userId: users.id,
      name: users.fullName,
      email: users.email,
      username: users.username,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.groupId, groupId));
  return {
    items: bySwedishName(rows).map((row) => ({
      membership_id: row.id,
      user_id: row.userId,
      full_name: row.name,
      email: row.email ?? row.username ?? '',
      role: row.role,
    })),
  };
}
