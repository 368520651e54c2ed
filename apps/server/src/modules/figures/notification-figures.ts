import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { groupFigures, groups, membershipFigures, memberships, orders, saleMailCursors, users } from '../../db/schema.js';
import { orderedWithin, rollupFigures, sumOrders } from './order-sums.js';

/** Each membership of the user with its all-time sales: where the sale mail starts counting when they opt in. */
export async function membershipSalesOfUser(db: Db | Tx, userId: number): Promise<{ membershipId: number; salesOre: number }[]> {
  return db
    .select({ membershipId: memberships.id, salesOre: rollupFigures(membershipFigures).salesOre })
    .from(memberships)
    .leftJoin(membershipFigures, eq(membershipFigures.membershipId, memberships.id))
    .where(eq(memberships.userId, userId));
}

/**
 * The memberships the sale-mail job may mail about: the seller has opted in, is not erased and
 * is not awaiting a guardian's consent, and the membership's sales differ from where its last
 * mail left off (no cursor: it started at 0 after the opt-in). The job decides what to do with
 * a difference below zero.
 */
export async function selectSaleMailRows(db: Db) {
  const salesOre = rollupFigures(membershipFigures).salesOre;
  const mailedSalesOre = sql<number>`coalesce(${saleMailCursors.mailedSalesOre}, 0)`.mapWith(Number);
  return db
    .select({
      membershipId: memberships.id,
      userId: users.id,
      fullName: users.fullName,
      email: users.email,
      isUnder13: users.isUnder13,
      groupName: groups.name,
      salesOre,
      mailedSalesOre,
      hasCursor: sql<boolean>`${saleMailCursors.membershipId} is not null`,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .leftJoin(membershipFigures, eq(membershipFigures.membershipId, memberships.id))
    .leftJoin(saleMailCursors, eq(saleMailCursors.membershipId, memberships.id))
    .where(
      and(
        eq(users.saleMail, true),
        isNull(users.erasedAt),
        or(isNull(users.guardianConsent), ne(users.guardianConsent, 'pending')),
        sql`${salesOre} <> ${mailedSalesOre}`,
      ),
    )
    .orderBy(users.id, memberships.id);
}

/**
 * How many of the group's pupils have started selling: its seller memberships (admins and erased
 * accounts not counted) and how many of them have at least one order that was not cancelled.
 * Counts only, never who.
 */
export async function groupParticipation(db: Db | Tx, groupId: number): Promise<{ started: number; members: number }> {
  const [row] = await db
    .select({
      members: sql<number>`count(*)`.mapWith(Number),
      started: sql<number>`count(*) filter (where coalesce(${membershipFigures.ordersCount}, 0) > 0)`.mapWith(Number),
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(membershipFigures, eq(membershipFigures.membershipId, memberships.id))
    .where(and(eq(memberships.groupId, groupId), eq(memberships.role, 'seller'), isNull(users.erasedAt)));
  return row ?? { started: 0, members: 0 };
}

/** A group's figures all time, from its rollup: a class's mails, and its goal on the buyer pages (issue 32). */
export async function groupAllTimeFigures(db: Db | Tx, groupId: number) {
  const [allTime] = await db.select(rollupFigures(groupFigures)).from(groupFigures).where(eq(groupFigures.groupId, groupId));
  return allTime ?? { salesOre: 0, commissionOre: 0, ordersCount: 0 };
}

/** A group's figures all time and who has taken part: the close-out of its campaign (issue 31). */
export async function groupFinalFigures(db: Db | Tx, groupId: number) {
  return { allTime: await groupAllTimeFigures(db, groupId), participation: await groupParticipation(db, groupId) };
}

/** A group's figures for the weekly summary: the week's orders (Stockholm days), all time, and who has started. */
export async function groupWeekFigures(db: Db, groupId: number, week: { from: string; to: string }) {
  const weekSums = await sumOrders(db, and(eq(orders.groupId, groupId), orderedWithin(week)));
  return {
    week: { salesOre: weekSums.salesOre, commissionOre: weekSums.commissionOre, ordersCount: weekSums.ordersCount },
    allTime: await groupAllTimeFigures(db, groupId),
    participation: await groupParticipation(db, groupId),
  };
}
