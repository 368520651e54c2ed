// A class's campaign in Stockholm days, without zod: the server (the link, the totals, the
// close-out) and the web's first paint (the countdown) decide the same way from here.
import { daysBetween } from './goal-days.js';

export type CampaignState = 'upcoming' | 'running' | 'ended';

/** The longest campaign a teacher can set: a year from its first day (issue 31). */
export const CAMPAIGN_MAX_DAYS = 366;

const MONTHS = ['januari', 'februari', 'mars', 'april', 'maj', 'juni', 'juli', 'augusti', 'september', 'oktober', 'november', 'december'];

/**
 * Where a campaign stands on `today` (all `YYYY-MM-DD`, Stockholm), and its selling days left,
 * today included: the whole campaign before it starts, 1 on its last day, 0 once it has ended.
 */
export function campaignState(startsOn: string, endsOn: string, today: string): { state: CampaignState; days_left: number } {
  if (today < startsOn) return { state: 'upcoming', days_left: daysBetween(startsOn, endsOn) + 1 };
  if (today > endsOn) return { state: 'ended', days_left: 0 };
  return { state: 'running', days_left: daysBetween(today, endsOn) + 1 };
}

/** A calendar day in running Swedish text, "1 mars", with the year when it is not `today`'s: "1 mars 2027". */
export function formatCampaignDay(day: string, today: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const sameYear = today.slice(0, 4) === day.slice(0, 4);
  return `${date} ${MONTHS[month - 1]}${sameYear ? '' : ` ${year}`}`;
}

/** What a campaign's days say today, in a sentence: the countdown, when it starts, or that it has ended. */
export function campaignText(campaign: { state: CampaignState; starts_on: string; days_left: number }, today: string): string {
  if (campaign.state === 'upcoming') return `Försäljningen startar ${formatCampaignDay(campaign.starts_on, today)}`;
  if (campaign.state === 'ended') return 'Försäljningen är avslutad';
  return campaign.days_left === 1 ? 'Sista dagen i dag!' : `${campaign.days_left} dagar kvar`;
}
