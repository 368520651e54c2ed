import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { orders } from '../../db/schema.js';
import { lastPayableDay, stockholmDayStart } from '../../lib/dates.js';

/**
 * 'Väntande' (issue 30 point 4): the commission of a pupil's or a class's orders still in the
 * holding period, net of their refunds and cancellations (so a refund inside it simply takes the
 * pending commission away). It is part of the commission every figure shows, and no payout takes
 * it yet. Read from the orders at the moment of asking, because an order leaves the holding period
 * with the passing of time and no write says so; without a holding period it is 0 and nothing is read.
 */
export async function pendingCommissionOre(
  db: Db,
  of: { membershipId: number } | { groupId: number },
  holdDays: number,
  now = new Date(),
): Promise<number> {
  const payableUntil = lastPayableDay(holdDays, now);
  if (payableUntil === null) return 0;
  const [row] = await db
    .select({ commissionOre: sql`coalesce(sum(${orders.commissionOre}), 0)`.mapWith(Number) })
    .from(orders)
    .where(
      and(
        'membershipId' in of ? eq(orders.membershipId, of.membershipId) : eq(orders.groupId, of.groupId),
        gte(orders.orderedAt, stockholmDayStart(payableUntil, 1)),
      ),
    );
  return row?.commissionOre ?? 0;
}
