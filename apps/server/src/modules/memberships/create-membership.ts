import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { memberships, users } from '../../db/schema.js';
import { randomCode } from '../../lib/random-codes.js';

export const LINK_CODE_LENGTH = 8;

/**
 * Puts a user in a group (or changes the role of an existing membership) with a fresh personal
 * link code, and makes the group the user's active one when they have none.
 */
export async function createMembership(
  db: Db | Tx,
  options: { userId: number; groupId: number; role: 'seller' | 'admin' },
): Promise<{ id: number; linkCode: string; created: boolean }> {
  const [existing] = await db
    .select({ id: memberships.id, linkCode: memberships.linkCode, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, options.userId), eq(memberships.groupId, options.groupId)));
  if (existing) {
    if (existing.role !== options.role) await db.update(memberships).set({ role: options.role }).where(eq(memberships.id, existing.id));
    return { id: existing.id, linkCode: existing.linkCode, created: false };
  }
  // 29^8 codes: a collision is rare, and the unique index turns one into a retry, not a duplicate.
  for (let attempt = 0; ; attempt++) {
    const linkCode = randomCode(LINK_CODE_LENGTH);
    const [row] = await db
      .insert(memberships)
      .values({ userId: options.userId, groupId: options.groupId, role: options.role, linkCode })
      .onConflictDoNothing({ target: memberships.linkCode })
      .returning({ id: memberships.id });
    if (row) {
      await db
        .update(users)
        .set({ activeGroupId: options.groupId })
        .where(and(eq(users.id, options.userId), isNull(users.activeGroupId)));
      return { id: row.id, linkCode, created: true };
    }
    if (attempt > 5) throw new Error('kunde inte skapa en unik länkkod');
  }
}
