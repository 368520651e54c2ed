import { and, eq, isNull } from 'drizzle-orm';
import type { TMembershipRole } from '@saljportalen/contract';
import type { Db, Tx } from '../../db/client.js';
import { memberships, users } from '../../db/schema.js';
import { randomCode } from '../../lib/random-codes.js';

export const LINK_CODE_LENGTH = 8;

interface Membership {
  id: number;
  linkCode: string;
  role: TMembershipRole;
}

async function findMembership(db: Db | Tx, options: { userId: number; groupId: number }): Promise<Membership | undefined> {
  const [existing] = await db
    .select({ id: memberships.id, linkCode: memberships.linkCode, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, options.userId), eq(memberships.groupId, options.groupId)));
  return existing;
}

/**
 * Puts a user in a group with `role` and a fresh personal link code, and makes the group the
 * user's active one when they have none. A membership the user already has stays as it is, role
 * included: whether to change a role is the caller's decision, never a side effect of joining.
 */
export async function createMembership(
  db: Db | Tx,
  options: { userId: number; groupId: number; role: TMembershipRole },
): Promise<Membership & { created: boolean }> {
  const existing = await findMembership(db, options);
  if (existing) return { ...existing, created: false };
  // 29^8 codes: a collision is rare, and the unique index turns one into a retry, not a duplicate.
  for (let attempt = 0; ; attempt++) {
    const linkCode = randomCode(LINK_CODE_LENGTH);
    // No conflict target: besides the link code, a request adding the same person at the same
    // moment (two registrations with one account) may hold (user, group) first; PostgreSQL then
    // waits for it and skips this row instead of failing on the unique index.
    const [row] = await db
      .insert(memberships)
      .values({ userId: options.userId, groupId: options.groupId, role: options.role, linkCode })
      .onConflictDoNothing()
      .returning({ id: memberships.id });
    if (row) {
      await db
        .update(users)
        .set({ activeGroupId: options.groupId })
        .where(and(eq(users.id, options.userId), isNull(users.activeGroupId)));
      return { id: row.id, linkCode, role: options.role, created: true };
    }
    const addedMeanwhile = await findMembership(db, options);
    if (addedMeanwhile) return { ...addedMeanwhile, created: false };
    if (attempt > 5) throw new Error('kunde inte skapa en unik länkkod');
  }
}
