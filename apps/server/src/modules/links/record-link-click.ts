import { eq, sql } from 'drizzle-orm';
import { campaignState } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, linkClicksPerDay, memberships, users } from '../../db/schema.js';
import { stockholmDate } from '../../lib/dates.js';

/**
 * What a personal link does: send the buyer to the shop (`open`), or say kindly why not: the
 * pupil waits for a guardian's consent, or the class's campaign has not started or has ended.
 */
export type LinkVisit =
  | { code: string; kind: 'open' }
  | { code: string; kind: 'awaiting_guardian_consent' }
  | { code: string; kind: 'campaign_upcoming'; startsOn: string; today: string }
  | { code: string; kind: 'campaign_ended' }
  | null;

/**
 * Counts a visit through a personal link (unless `count` is false). Returns the code as stored,
 * or null for an unknown one. Codes are upper case (lib/random-codes); a link typed in lower
 * case still works. The link of a pupil waiting for a guardian's consent is not active yet
 * (issue 22): the visit is not counted and the caller sends the buyer nowhere. A visit is counted
 * on its link's Stockholm day: nothing about the visitor is stored, no address, no browser, no time.
 * Outside the class's campaign (issue 31) the link leads nowhere and the visit is not counted either.
 */
export async function recordLinkClick(db: Db, rawCode: string, options: { count: boolean; now?: Date }): Promise<LinkVisit> {
  const code = rawCode.trim().toUpperCase();
  if (!/^[A-Z0-9_-]{1,64}$/.test(code)) return null;
  const [membership] = await db
    .select({
      id: memberships.id,
      guardianConsent: users.guardianConsent,
      campaignStartsOn: groups.campaignStartsOn,
      campaignEndsOn: groups.campaignEndsOn,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(eq(memberships.linkCode, code));
  if (!membership) return null;
  if (membership.guardianConsent === 'pending') return { code, kind: 'awaiting_guardian_consent' };
  if (membership.campaignStartsOn && membership.campaignEndsOn) {
    const today = stockholmDate(options.now ?? new Date());
    const { state } = campaignState(membership.campaignStartsOn, membership.campaignEndsOn, today);
    if (state === 'upcoming') return { code, kind: 'campaign_upcoming', startsOn: membership.campaignStartsOn, today };
    if (state === 'ended') return { code, kind: 'campaign_ended' };
  }
  if (options.count) {
    await db
      .insert(linkClicksPerDay)
      .values({ membershipId: membership.id, day: sql`(now() at time zone 'Europe/Stockholm')::date`, clicks: 1 })
      .onConflictDoUpdate({
        target: [linkClicksPerDay.membershipId, linkClicksPerDay.day],
        set: { clicks: sql`${linkClicksPerDay.clicks} + 1` },
      });
  }
  return { code, kind: 'open' };
}
