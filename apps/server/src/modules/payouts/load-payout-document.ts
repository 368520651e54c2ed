import { aliasedTable, asc, eq, sql } from 'drizzle-orm';
import { CLASS_LINK_SELLER_NAME } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groupPayoutAccounts, groups, memberships, orderLines, orders, payouts, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { ordersCountedInPayout } from '../figures/order-sums.js';
import { receivingAccountOf } from './payout-account.js';
import type { PayoutDocument } from './render-payout-pdf.js';

/** A line whose membership was removed still counts; it just has no name to show. */
const UNKNOWN_SELLER = 'Okänd säljare';

/** A line of the group with no pupil came through the class link (issue 32): an unattributed one has no group. */
const sellerNameOf = (line: { membershipId: number | null; sellerName: string | null }) =>
  line.membershipId === null ? CLASS_LINK_SELLER_NAME : (line.sellerName ?? UNKNOWN_SELLER);

/** Everything the payout PDF shows, read from the payout and exactly the lines it settled. */
export async function loadPayoutDocument(db: Db, payoutId: number): Promise<PayoutDocument> {
  const createdBy = aliasedTable(users, 'created_by_user');
  const paidBy = aliasedTable(users, 'paid_by_user');
  const [payout] = await db
    .select({
      id: payouts.id,
      groupName: groups.name,
      groupCode: groups.code,
      periodFrom: payouts.periodFrom,
      periodTo: payouts.periodTo,
      status: payouts.status,
      ordersCount: payouts.ordersCount,
      linesCount: payouts.linesCount,
      salesOre: payouts.salesOre,
      commissionOre: payouts.commissionOre,
      createdAt: payouts.createdAt,
      createdByName: createdBy.fullName,
      paidAt: payouts.paidAt,
      paidByName: paidBy.fullName,
      paidToAccount: payouts.paidToAccount,
      paidToHolder: payouts.paidToHolder,
      groupAccount: groupPayoutAccounts,
    })
    .from(payouts)
    .innerJoin(groups, eq(groups.id, payouts.groupId))
    .leftJoin(groupPayoutAccounts, eq(groupPayoutAccounts.groupId, payouts.groupId))
    .leftJoin(createdBy, eq(createdBy.id, payouts.createdBy))
    .leftJoin(paidBy, eq(paidBy.id, payouts.paidBy))
    .where(eq(payouts.id, payoutId));
  if (!payout) throw new AppError('NOT_FOUND', 'Avräkningen finns inte');

  const lines = await db
    .select({
      bookedAt: orderLines.bookedAt,
      orderId: orderLines.orderId,
      orderName: sql<string>`coalesce(${orders.orderName}, '#' || ${orders.shopifyOrderId}::text)`,
      membershipId: orderLines.membershipId,
      sellerName: users.fullName,
      product: orderLines.title,
      kind: orderLines.kind,
      quantity: orderLines.quantity,
      amountOre: orderLines.amountOre,
      commissionOre: orderLines.commissionOre,
      // A line of a day an earlier payout of the group covered corrects that payout (decision 065).
      correctionOf: sql<number | null>`(select max(p.id) from ${payouts} p
        where p.group_id = ${orderLines.groupId} and p.id < ${payoutId}
          and (${orderLines.bookedAt} at time zone 'Europe/Stockholm')::date between p.period_from and p.period_to)`.mapWith(
        (value: unknown) => (value === null ? null : Number(value)),
      ),
      deductionOf: sql<number | null>`(select r.payout_id from ${orderLines} r
        where r.id = ${orderLines.reversesLineId} and r.payout_id <> ${payoutId})`.mapWith((value: unknown) =>
        value === null ? null : Number(value),
      ),
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .leftJoin(memberships, eq(memberships.id, orderLines.membershipId))
    .leftJoin(users, eq(users.id, memberships.userId))
    .where(eq(orderLines.payoutId, payoutId))
    .orderBy(asc(orderLines.bookedAt), asc(orderLines.orderId), asc(orderLines.id));

  const counted = ordersCountedInPayout(lines);
  const sellers = new Map<number | null, { name: string; orderIds: Set<number>; salesOre: number; commissionOre: number }>();
  for (const line of lines) {
    const seller = sellers.get(line.membershipId) ?? {
      name: sellerNameOf(line),
      orderIds: new Set(),
      salesOre: 0,
      commissionOre: 0,
    };
    if (counted.ofMembership(line.membershipId).has(line.orderId)) seller.orderIds.add(line.orderId);
    seller.salesOre += line.amountOre;
    seller.commissionOre += line.commissionOre;
    sellers.set(line.membershipId, seller);
  }

  const { paidToAccount, paidToHolder, groupAccount, ...facts } = payout;
  return {
    ...facts,
    receivingAccount: receivingAccountOf({ status: payout.status, paidToAccount, paidToHolder, groupAccount }),
    sellers: [...sellers.values()]
      .map((seller) => ({
        name: seller.name,
        ordersCount: seller.orderIds.size,
        salesOre: seller.salesOre,
        commissionOre: seller.commissionOre,
      }))
      .sort((a, b) => b.commissionOre - a.commissionOre || a.name.localeCompare(b.name, 'sv')),
    lines: lines.map((line) => ({ ...line, sellerName: sellerNameOf(line) })),
  };
}
