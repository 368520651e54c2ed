import { asc, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { linkClicks } from '../../db/schema.js';
import { STOCKHOLM } from '../../lib/dates.js';

export interface LinkClicksOfDay {
  membershipId: number;
  /** The Stockholm calendar day, YYYY-MM-DD. */
  day: string;
  clicks: number;
}

/** The visits through these memberships' personal links, counted per Stockholm day, oldest first. */
export async function linkClicksPerDay(db: Db | Tx, membershipIds: number[]): Promise<LinkClicksOfDay[]> {
  if (membershipIds.length === 0) return [];
  const day = sql<string>`to_char(${linkClicks.clickedAt} at time zone ${sql.raw(`'${STOCKHOLM}'`)}, 'YYYY-MM-DD')`;
  const rows = await db
    .select({ membershipId: linkClicks.membershipId, day, clicks: sql<number>`count(*)`.mapWith(Number) })
    .from(linkClicks)
    .where(inArray(linkClicks.membershipId, membershipIds))
    .groupBy(linkClicks.membershipId, day)
    .orderBy(asc(day), asc(linkClicks.membershipId));
  return rows;
}
