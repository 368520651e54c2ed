import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { linkClicks, memberships } from '../../db/schema.js';

/**
 * Counts a visit through a personal link (unless `count` is false). Returns the code as stored,
 * or null for an unknown one. Codes are upper case (lib/random-codes); a link typed in lower
 * case still works.
 */
export async function recordLinkClick(db: Db, rawCode: string, options: { count: boolean }): Promise<string | null> {
  const code = rawCode.trim().toUpperCase();
  if (!/^[A-Z0-9_-]{1,64}$/.test(code)) return null;
  const [membership] = await db.select({ id: memberships.id }).from(memberships).where(eq(memberships.linkCode, code));
  if (!membership) return null;
  if (options.count) await db.insert(linkClicks).values({ membershipId: membership.id });
  return code;
}
