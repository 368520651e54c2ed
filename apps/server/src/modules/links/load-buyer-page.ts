import { eq, sql } from 'drizzle-orm';
import { campaignState, classShopRef } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, linkClicksPerDay, memberships, retiredLinkCodes, users } from '../../db/schema.js';
import { stockholmDate } from '../../lib/dates.js';
import { sha256 } from '../../lib/random-codes.js';
import { storedGoal, type StoredGoal } from '../figures/group-goal.js';
import { groupAllTimeFigures } from '../figures/notification-figures.js';
import { publicSellerName } from '../memberships/public-seller-name.js';

/** What a buyer supports on an open page: a pupil of a class, or the whole class. */
export interface OpenBuyerPage {
  kind: 'open';
  /** The code the shop gets as `?ref=`, exactly as the order's attribution reads it. */
  shopRef: string;
  /** The name the family chose, or null on the class link. */
  sellerName: string | null;
  /** The group's name; null for a pupil with protected personal data, whose class is not told. */
  groupName: string | null;
  goal: (StoredGoal & { raisedOre: number }) | null;
  /** The campaign's selling days left, today included, when the class has a campaign. */
  campaign: { daysLeft: number; endsOn: string } | null;
  greeting: string | null;
  today: string;
}

/**
 * What a link's page says (issue 32): the page before the shop, or kindly why there is no way on:
 * an unknown code, an erased pupil's old link, a pupil waiting for a guardian's consent (issue 22),
 * a campaign not started or ended (issue 31; an archived group's has ended).
 */
export type BuyerPage =
  | OpenBuyerPage
  | { kind: 'unknown' }
  | { kind: 'retired' }
  | { kind: 'awaiting_guardian_consent' }
  | { kind: 'campaign_upcoming'; startsOn: string; today: string }
  | { kind: 'campaign_ended' };

/** Codes are upper case (lib/random-codes); a link typed in lower case still works. */
const normalisedCode = (rawCode: string) => {
  const code = rawCode.trim().toUpperCase();
  return /^[A-Z0-9_-]{1,64}$/.test(code) ? code : null;
};

const groupColumns = {
  groupId: groups.id,
  groupName: groups.name,
  archived: groups.archived,
  goalOre: groups.goalOre,
  goalPurpose: groups.goalPurpose,
  goalEndsOn: groups.goalEndsOn,
  campaignStartsOn: groups.campaignStartsOn,
  campaignEndsOn: groups.campaignEndsOn,
  buyerGreeting: groups.buyerGreeting,
};
interface GroupColumns {
  groupId: number;
  groupName: string;
  archived: boolean;
  goalOre: number | null;
  goalPurpose: string | null;
  goalEndsOn: string | null;
  campaignStartsOn: string | null;
  campaignEndsOn: string | null;
  buyerGreeting: string | null;
}

/** Where the group's campaign leaves its links today; null while they are open. */
function closedByCampaign(group: GroupColumns, today: string): BuyerPage | null {
  if (group.archived) return { kind: 'campaign_ended' };
  if (!group.campaignStartsOn || !group.campaignEndsOn) return null;
  const { state } = campaignState(group.campaignStartsOn, group.campaignEndsOn, today);
  if (state === 'upcoming') return { kind: 'campaign_upcoming', startsOn: group.campaignStartsOn, today };
  if (state === 'ended') return { kind: 'campaign_ended' };
  return null;
}

async function openPage(
  db: Db,
  group: GroupColumns,
  who: { shopRef: string; sellerName: string | null; showGroup: boolean },
  today: string,
): Promise<OpenBuyerPage> {
  const goal = storedGoal(group);
  const campaign =
    group.campaignStartsOn && group.campaignEndsOn
      ? { daysLeft: campaignState(group.campaignStartsOn, group.campaignEndsOn, today).days_left, endsOn: group.campaignEndsOn }
      : null;
  return {
    kind: 'open',
    shopRef: who.shopRef,
    sellerName: who.sellerName,
    groupName: who.showGroup ? group.groupName : null,
    // A goal is measured in commission, what the class has earned (decisions 038, 042).
    goal: goal && { ...goal, raisedOre: (await groupAllTimeFigures(db, group.groupId)).commissionOre },
    campaign,
    greeting: group.buyerGreeting?.trim() || null,
    today,
  };
}

/**
 * The page of a personal link `/s/{code}`, counting the visit when it is open and `count` is set
 * (not for HEAD: link previews in chat apps ask with it). A visit is counted on its link's
 * Stockholm day, and nothing about the visitor is stored: no address, no browser, no time.
 */
export async function loadPersonalLinkPage(db: Db, rawCode: string, options: { count: boolean; now?: Date }): Promise<BuyerPage> {
  const code = normalisedCode(rawCode);
  if (!code) return { kind: 'unknown' };
  const today = stockholmDate(options.now ?? new Date());
  const [row] = await db
    .select({
      membershipId: memberships.id,
      protectedIdentity: memberships.protectedIdentity,
      guardianConsent: users.guardianConsent,
      fullName: users.fullName,
      publicName: users.publicName,
      alias: users.alias,
      ...groupColumns,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(eq(memberships.linkCode, code));
  if (!row) {
    const [retired] = await db
      .select({ at: retiredLinkCodes.retiredAt })
      .from(retiredLinkCodes)
      .where(eq(retiredLinkCodes.codeHash, sha256(code)));
    return retired ? { kind: 'retired' } : { kind: 'unknown' };
  }
  if (row.guardianConsent === 'pending') return { kind: 'awaiting_guardian_consent' };
  const closed = closedByCampaign(row, today);
  if (closed) return closed;
  if (options.count) {
    await db
      .insert(linkClicksPerDay)
      .values({ membershipId: row.membershipId, day: sql`(now() at time zone 'Europe/Stockholm')::date`, clicks: 1 })
      .onConflictDoUpdate({
        target: [linkClicksPerDay.membershipId, linkClicksPerDay.day],
        set: { clicks: sql`${linkClicksPerDay.clicks} + 1` },
      });
  }
  // A pupil with protected personal data is told by alias only, and their class not at all.
  return openPage(db, row, { shopRef: code, sellerName: publicSellerName(row), showGroup: !row.protectedIdentity }, today);
}

/** The page of a class link `/k/{code}` (issue 32): the class instead of a pupil, orders the class's own. */
export async function loadClassLinkPage(db: Db, rawCode: string, options: { now?: Date } = {}): Promise<BuyerPage> {
  const code = normalisedCode(rawCode);
  if (!code) return { kind: 'unknown' };
  const today = stockholmDate(options.now ?? new Date());
  const [group] = await db.select(groupColumns).from(groups).where(eq(groups.classLinkCode, code));
  if (!group) return { kind: 'unknown' };
  return closedByCampaign(group, today) ?? openPage(db, group, { shopRef: classShopRef(code), sellerName: null, showGroup: true }, today);
}
