import { and, eq } from 'drizzle-orm';
import type { TSalesPerDayResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { memberships } from '../../db/schema.js';
import { forbidden } from '../../errors.js';
import { groupSalesPerDay } from '../figures/sales-over-time.js';

/**
 * The class's sales per day for the dashboard's group card: any member of the group, seller or
 * admin, whatever its leaderboard mode, since class totals name no pupil. A group the caller is
 * not in is refused the same way whether it exists or not, so the answer tells nothing about it.
 */
export async function getGroupSalesPerDay(db: Db, options: { userId: number; groupId: number }): Promise<TSalesPerDayResponse> {
  const [membership] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.userId, options.userId), eq(memberships.groupId, options.groupId)));
  const sales = membership ? await groupSalesPerDay(db, options.groupId) : null;
  if (!sales) throw forbidden('Du är inte med i den här gruppen');
  return sales;
}
