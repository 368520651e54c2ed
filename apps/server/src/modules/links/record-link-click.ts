import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { linkClicksPerDay, memberships } from '../../db/schema.js';

/**
 * Counts a visit through a personal link (unless `count` is false) on its link's Stockholm day:
 * nothing about the visitor is stored, no address, no browser, no time (issue 22). Returns the code
 * as stored, or null for an unknown one. Codes are upper case (lib/random-codes); a link typed in
 * lower case still works.
 */
export async function recordLinkClick(db: Db, rawCode: string, options: { count: boolean }): Promise<string | null> {
  const code = rawCode.trim().toUpperCase();
  if (!/^[A-Z0-9_-]{1,64}$/.test(code)) return null;
  const [membership] = await db.select({ id: memberships.id }).from(memberships).where(eq(memberships.linkCode, code));
  if (!membership) return null;
  if (options.count) {
    await db
      .insert(linkClicksPerDay)
      .values({ membershipId: membership.id, day: sql`(now() at time zone 'Europe/Stockholm')::date`, clicks: 1 })
      .onConflictDoUpdate({
        target: [linkClicksPerDay.membershipId, linkClicksPerDay.day],
        set: { clicks: sql`${linkClicksPerDay.clicks} + 1` },
      });
  }
  return code;
}
