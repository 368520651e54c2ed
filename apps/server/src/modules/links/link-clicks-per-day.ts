import { asc, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { linkClicksPerDay as linkClicksPerDayTable } from '../../db/schema.js';

/**
 * The visits through these memberships' personal links, one row per link and Stockholm day
 * ('2026-11-26'), oldest first: all the portal keeps about visits (the account export reads it).
 */
export async function linkClicksPerDay(
  db: Db | Tx,
  membershipIds: readonly number[],
): Promise<{ membershipId: number; day: string; clicks: number }[]> {
  if (membershipIds.length === 0) return [];
  return db
    .select({ membershipId: linkClicksPerDayTable.membershipId, day: linkClicksPerDayTable.day, clicks: linkClicksPerDayTable.clicks })
    .from(linkClicksPerDayTable)
    .where(inArray(linkClicksPerDayTable.membershipId, [...membershipIds]))
    .orderBy(asc(linkClicksPerDayTable.membershipId), asc(linkClicksPerDayTable.day));
}
