import { and, asc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { TAccountExport } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { auditEntries, groups, guardianLinks, memberships, orderLines, orders, payouts, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { oreToSek } from '../../lib/money.js';
import { personalLink } from '../memberships/active-membership.js';
import { linkClicksPerDay } from '../links/link-clicks-per-day.js';

const iso = (instant: Date | null) => (instant ? instant.toISOString() : null);

/**
 * Everything stored about one person (issue 22, decision 034), for 'Ladda ner mina uppgifter':
 * the account without its password hash, memberships and link codes, the orders attributed to
 * them with their lines and amounts (no buyer data: the portal keeps none on an order), link
 * clicks per day, the payouts that settle their lines, the audit entries about them, and their
 * guardian links both ways.
 */
export async function exportAccount(db: Db, userId: number, options: { publicUrl: string; now?: Date }): Promise<TAccountExport> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user || user.erasedAt) throw new AppError('NOT_FOUND', 'Kontot finns inte');

  const membershipRows = await db
    .select({
      id: memberships.id,
      groupId: memberships.groupId,
      groupName: groups.name,
      role: memberships.role,
      linkCode: memberships.linkCode,
      protectedIdentity: memberships.protectedIdentity,
      personalGoalOre: memberships.personalGoalOre,
      createdAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.id));
  const membershipIds = membershipRows.map((membership) => membership.id);
  const ofMemberships = <T>(query: (ids: number[]) => Promise<T[]>) =>
    membershipIds.length > 0 ? query(membershipIds) : Promise.resolve([]);

  const [orderRows, lineRows, clicks, payoutRows, auditRows, asChild, asGuardian] = await Promise.all([
    ofMemberships((ids) =>
      db
        .select({
          id: orders.id,
          orderName: orders.orderName,
          membershipId: orders.membershipId,
          groupId: orders.groupId,
          orderedAt: orders.orderedAt,
          state: orders.state,
          subtotalOre: orders.subtotalOre,
          commissionOre: orders.commissionOre,
          currency: orders.currency,
        })
        .from(orders)
        .where(inArray(orders.membershipId, ids))
        .orderBy(asc(orders.orderedAt), asc(orders.id)),
    ),
    ofMemberships((ids) =>
      db
        .select({
          orderId: orderLines.orderId,
          kind: orderLines.kind,
          title: orderLines.title,
          quantity: orderLines.quantity,
          amountOre: orderLines.amountOre,
          commissionOre: orderLines.commissionOre,
          bookedAt: orderLines.bookedAt,
          payoutId: orderLines.payoutId,
        })
        .from(orderLines)
        .innerJoin(orders, eq(orders.id, orderLines.orderId))
        .where(inArray(orders.membershipId, ids))
        .orderBy(asc(orderLines.id)),
    ),
    linkClicksPerDay(db, membershipIds),
    ofMemberships((ids) =>
      db
        .select({
          id: payouts.id,
          groupId: payouts.groupId,
          periodFrom: payouts.periodFrom,
          periodTo: payouts.periodTo,
          status: payouts.status,
          paidAt: payouts.paidAt,
          linesCount: sql<number>`count(*)`.mapWith(Number),
          salesOre: sql<number>`sum(${orderLines.amountOre})`.mapWith(Number),
          commissionOre: sql<number>`sum(${orderLines.commissionOre})`.mapWith(Number),
        })
        .from(orderLines)
        .innerJoin(payouts, eq(payouts.id, orderLines.payoutId))
        .where(and(inArray(orderLines.membershipId, ids), isNotNull(orderLines.payoutId)))
        .groupBy(payouts.id)
        .orderBy(asc(payouts.id)),
    ),
    db
      .select()
      .from(auditEntries)
      .where(
        or(
          eq(auditEntries.actorUserId, userId),
          and(eq(auditEntries.targetType, 'user'), eq(auditEntries.targetId, String(userId))),
          // add-user and create-group name the person they placed in their details (audit/list-audit-entries.ts).
          sql`${auditEntries.details} ->> 'userId' = ${String(userId)}`,
          sql`${auditEntries.details} ->> 'adminUserId' = ${String(userId)}`,
          membershipIds.length > 0
            ? sql`(${auditEntries.details} ->> 'to_membership_id')::text in ${membershipIds.map(String)}
                  or (${auditEntries.details} ->> 'from_membership_id')::text in ${membershipIds.map(String)}`
            : undefined,
        ),
      )
      .orderBy(asc(auditEntries.createdAt), asc(auditEntries.id)),
    db.select().from(guardianLinks).where(eq(guardianLinks.childUserId, userId)).orderBy(asc(guardianLinks.id)),
    db
      .select({ link: guardianLinks, childName: users.fullName })
      .from(guardianLinks)
      .innerJoin(users, eq(users.id, guardianLinks.childUserId))
      .where(eq(guardianLinks.guardianUserId, userId))
      .orderBy(asc(guardianLinks.id)),
  ]);

  const linesOf = new Map<number, typeof lineRows>();
  for (const line of lineRows) linesOf.set(line.orderId, [...(linesOf.get(line.orderId) ?? []), line]);

  return {
    exported_at: (options.now ?? new Date()).toISOString(),
    account: {
      id: user.id,
      full_name: user.fullName,
      email: user.email,
      username: user.username,
      phone: user.phone,
      alias: user.alias,
      public_name: user.publicName,
      is_superadmin: user.isSuperadmin,
      is_under_13: user.isUnder13,
      guardian_consent: user.guardianConsent,
      sale_mail: user.saleMail,
      weekly_summary: user.weeklySummary,
      active_group_id: user.activeGroupId,
      last_sign_in_at: iso(user.lastSignInAt),
      created_at: user.createdAt.toISOString(),
    },
    memberships: membershipRows.map((membership) => ({
      membership_id: membership.id,
      group_id: membership.groupId,
      group_name: membership.groupName,
      role: membership.role,
      link_code: membership.linkCode,
      personal_link: personalLink(options.publicUrl, membership.linkCode),
      protected_identity: membership.protectedIdentity,
      personal_goal: membership.personalGoalOre === null ? null : oreToSek(membership.personalGoalOre),
      joined_at: membership.createdAt.toISOString(),
    })),
    orders: orderRows.map((order) => ({
      order_id: order.id,
      order_name: order.orderName,
      membership_id: order.membershipId!,
      group_id: order.groupId,
      ordered_at: order.orderedAt.toISOString(),
      state: order.state,
      subtotal_incl_vat: oreToSek(order.subtotalOre),
      commission: oreToSek(order.commissionOre),
      currency: order.currency,
      lines: (linesOf.get(order.id) ?? []).map((line) => ({
        kind: line.kind,
        title: line.title,
        quantity: line.quantity,
        amount: oreToSek(line.amountOre),
        commission: oreToSek(line.commissionOre),
        booked_at: line.bookedAt.toISOString(),
        payout_id: line.payoutId,
      })),
    })),
    link_clicks_per_day: clicks.map((row) => ({ membership_id: row.membershipId, day: row.day, clicks: row.clicks })),
    payouts: payoutRows.map((payout) => ({
      payout_id: payout.id,
      group_id: payout.groupId,
      period_from: payout.periodFrom,
      period_to: payout.periodTo,
      status: payout.status,
      paid_at: iso(payout.paidAt),
      own_lines_count: payout.linesCount,
      own_sales: oreToSek(payout.salesOre),
      own_commission: oreToSek(payout.commissionOre),
    })),
    audit_entries: auditRows.map((entry) => ({
      id: entry.id,
      action: entry.action,
      as_actor: entry.actorUserId === userId,
      target_type: entry.targetType,
      target_id: entry.targetId,
      details: (entry.details ?? null) as Record<string, unknown> | null,
      created_at: entry.createdAt.toISOString(),
    })),
    guardian_links: {
      as_child: asChild.map((link) => ({
        guardian_email: link.guardianEmail,
        guardian_user_id: link.guardianUserId,
        approved_at: iso(link.approvedAt),
        created_at: link.createdAt.toISOString(),
      })),
      as_guardian: asGuardian.map(({ link, childName }) => ({
        child_user_id: link.childUserId,
        child_name: childName,
        approved_at: iso(link.approvedAt),
        created_at: link.createdAt.toISOString(),
      })),
    },
  };
}

/** 'mina-uppgifter-2026-11-26.json': the file name the download is saved under. */
export const exportFileName = (now: Date) => `mina-uppgifter-${now.toISOString().slice(0, 10)}.json`;
