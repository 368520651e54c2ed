import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { linkClicksPerDay, memberships, users } from '../../db/schema.js';

export type LinkVisit = { code: string; awaitingGuardianConsent: false } | { code: string; awaitingGuardianConsent: true } | null;

/**
 * Counts a visit through a personal link (unless `count` is false). Returns the code as stored,
 * or null for an unknown one. Codes are upper case (lib/random-codes); a link typed in lower
 * case still works. The link of a pupil waiting for a guardian's consent is not active yet
 * (issue 22): the visit is not counted and the caller sends the buyer nowhere. A visit is counted
 * on its link's Stockholm day: nothing about the visitor is stored, no address, no browser, no time.
 */
export async function recordLinkClick(db: Db, rawCode: string, options: { count: boolean }): Promise<LinkVisit> {
  const code = rawCode.trim().toUpperCase();
  if (!/^[A-Z0-9_-]{1,64}$/.test(code)) return null;
  const [membership] = await db
    .select({ id: memberships.id, guardianConsent: users.guardianConsent })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.linkCode, code));
  if (!membership) return null;
  if (membership.guardianConsent === 'pending') return { code, awaitingGuardianConsent: true };
  if (options.count) {
    await db
      .insert(linkClicksPerDay)
      .values({ membershipId: membership.id, day: sql`(now() at time zone 'Europe/Stockholm')::date`, clicks: 1 })
      .onConflictDoUpdate({
        target: [linkClicksPerDay.membershipId, linkClicksPerDay.day],
        set: { clicks: sql`${linkClicksPerDay.clicks} + 1` },
      });
  }
  return { code, awaitingGuardianConsent: false };
}
