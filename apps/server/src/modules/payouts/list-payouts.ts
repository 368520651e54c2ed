import { and, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { TPayout } from '@saljportalen/contract';
import type { Db, Tx } from '../../db/client.js';
import { groupPayoutAccounts, groups, payouts } from '../../db/schema.js';
import { oreToSek, payoutAmountsOre } from '../../lib/money.js';
import { receivingAccountOf } from './payout-account.js';

export interface ListPayoutsOptions {
  /** Spec §4: 'open' is how the web asks for drafts. */
  status: 'all' | 'draft' | 'open' | 'paid';
  groupId?: number;
  /** Payouts whose period overlaps [from, to] (inclusive dates). */
  from?: string;
  to?: string;
}

const payoutColumns = {
  id: payouts.id,
  groupId: payouts.groupId,
  groupName: groups.name,
  periodFrom: payouts.periodFrom,
  periodTo: payouts.periodTo,
  ordersCount: payouts.ordersCount,
  linesCount: payouts.linesCount,
  salesOre: payouts.salesOre,
  commissionOre: payouts.commissionOre,
  status: payouts.status,
  createdAt: payouts.createdAt,
  paidAt: payouts.paidAt,
  paidToAccount: payouts.paidToAccount,
  paidToHolder: payouts.paidToHolder,
  groupAccount: groupPayoutAccounts,
};

const selectPayouts = (db: Db | Tx) =>
  db
    .select(payoutColumns)
    .from(payouts)
    .innerJoin(groups, eq(groups.id, payouts.groupId))
    .leftJoin(groupPayoutAccounts, eq(groupPayoutAccounts.groupId, payouts.groupId));
type PayoutRow = Awaited<ReturnType<typeof selectPayouts>>[number];

function toPayout(row: PayoutRow): TPayout {
  const amounts = payoutAmountsOre(row.commissionOre);
  return {
    id: row.id,
    group_id: row.groupId,
    group_name: row.groupName,
    period_from: row.periodFrom,
    period_to: row.periodTo,
    orders_count: row.ordersCount,
    lines_count: row.linesCount,
    total_sales: oreToSek(row.salesOre),
    total_commission: oreToSek(row.commissionOre),
    rounding: oreToSek(amounts.roundingOre),
    amount_to_pay: oreToSek(amounts.toPayOre),
    status: row.status,
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
    receiving_account: receivingAccountOf(row),
  };
}

/** Newest first. */
export async function listPayouts(db: Db, options: ListPayoutsOptions): Promise<TPayout[]> {
  const conditions: SQL[] = [];
  if (options.status === 'draft' || options.status === 'open') conditions.push(eq(payouts.status, 'draft'));
  if (options.status === 'paid') conditions.push(eq(payouts.status, 'paid'));
  if (options.groupId !== undefined) conditions.push(eq(payouts.groupId, options.groupId));
  if (options.from) conditions.push(gte(payouts.periodTo, options.from));
  if (options.to) conditions.push(lte(payouts.periodFrom, options.to));
  const rows = await selectPayouts(db)
    .where(and(...conditions))
    .orderBy(desc(payouts.createdAt), desc(payouts.id));
  return rows.map(toPayout);
}

export async function findPayout(db: Db | Tx, payoutId: number): Promise<TPayout | undefined> {
  const [row] = await selectPayouts(db).where(eq(payouts.id, payoutId));
  return row && toPayout(row);
}
