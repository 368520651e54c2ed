/**
 * The order lines of a Shopify order as a ledger: sale lines are written once, refunds and
 * cancellations are new negative lines pointing at the sale they reverse, and no line is ever
 * changed afterwards, so a line settled in a payout stays exactly as it was settled (DESIGN D8).
 * Every function here runs inside the transaction that holds the order's lock.
 */
import { and, asc, eq, getTableName, sql, type SQL, type WithSubquery } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import { groups, orderLines, orders, payouts, products } from '../../db/schema.js';
import { stockholmDayStart } from '../../lib/dates.js';
import { commissionOre } from '../../lib/money.js';
import type { TShopifyRefund } from '../../lib/shopify-payloads.js';
import { reversalOf, type LineFigures, type SaleLineDraft } from './shopify-order.js';

/** Advisory-lock namespace of Shopify orders (the two-integer key space, apart from any bigint lock). */
const ORDER_LOCK_NAMESPACE = 6001;

/** A Shopify id (decimal string) as a bigint parameter, exact beyond 2^53. */
export const shopifyIdParam = (id: string): SQL => sql`${id}::bigint`;

/**
 * Serialises every event about one Shopify order, across processes: a refund and its order
 * arriving at the same moment cannot miss each other, and two deliveries of one order cannot
 * both insert its lines.
 */
export async function lockShopifyOrder(tx: Tx, shopifyOrderId: string): Promise<void> {
  await tx.execute(sql`select ${shopifyOrderLock(shopifyOrderId)}`);
}

/** The expression that takes the order's lock, for a statement that does more in the same round trip. */
export const shopifyOrderLock = (shopifyOrderId: string): SQL =>
  sql`pg_advisory_xact_lock(${ORDER_LOCK_NAMESPACE}::int, hashtext(${shopifyOrderId}))`;

export interface StoredOrder {
  id: number;
  orderName: string | null;
  membershipId: number | null;
  groupId: number | null;
  orderedAt: Date;
  state: string;
}

export const storedOrderColumns = {
  id: orders.id,
  orderName: orders.orderName,
  membershipId: orders.membershipId,
  groupId: orders.groupId,
  orderedAt: orders.orderedAt,
  state: orders.state,
};

/** A payout's inclusive period, as Stockholm calendar dates (YYYY-MM-DD). */
export interface PayoutPeriod {
  from: string;
  to: string;
}

/**
 * When a line for `groupId` that happened at `instant` is booked. Never inside a period a payout
 * of the group already covers, since every later payout would pass it by: such a line (a late
 * delivery, a refund replayed, an order assigned by hand) is booked on the first day after the
 * group's latest payout, so the next payout settles it. The share lock on the group waits for a
 * payout being created for it right now (create-payout locks the group row for update).
 */
export async function bookingInstant(tx: Tx, groupId: number | null, instant: Date): Promise<Date> {
  if (groupId === null) return instant;
  // One query: the group row share-locked, with its payouts' periods (none: one row of nulls).
  const rows = await tx
    .select({ from: payouts.periodFrom, to: payouts.periodTo })
    .from(groups)
    .leftJoin(payouts, eq(payouts.groupId, groups.id))
    .where(eq(groups.id, groupId))
    .for('share', { of: groups });
  return bookingInstantWithin(
    rows.filter((row): row is PayoutPeriod => row.from !== null && row.to !== null),
    instant,
  );
}

/** bookingInstant for a group whose payout periods were read under its share lock already. */
export function bookingInstantWithin(periods: PayoutPeriod[], instant: Date): Date {
  if (periods.length === 0) return instant;
  const covered = periods.some((period) => instant >= stockholmDayStart(period.from) && instant < stockholmDayStart(period.to, 1));
  if (!covered) return instant;
  const latestTo = periods.reduce((latest, period) => (period.to > latest ? period.to : latest), periods[0]!.to);
  return stockholmDayStart(latestTo, 1);
}

/**
 * A column of the row a statement writes, spelled with its table, for a subquery in its RETURNING
 * (Drizzle writes a RETURNING's columns bare, and a bare name in a subquery means the subquery's own).
 */
export const writtenColumn = (column: PgColumn): SQL => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * The payout periods of a group as one JSON value, for a statement that does more in the same
 * round trip. Read them only in a statement after the one that share-locked the group: a
 * statement's snapshot is taken before it waits for a lock, so periods read while waiting could
 * miss a payout committed meanwhile.
 */
export const payoutPeriodsOf = (groupId: SQL): SQL<PayoutPeriod[]> =>
  sql`(select coalesce(json_agg(json_build_object('from', ${payouts.periodFrom}, 'to', ${payouts.periodTo})), '[]')
       from ${payouts} where ${payouts.groupId} = ${groupId})`;

/** A sale line as Shopify sent it, with its product and its commission at that product's rate. */
export interface PricedSaleLine extends SaleLineDraft {
  productId: number | null;
  commissionOre: number;
}

/** A product a sale line may name, with its commission rate. */
export interface CatalogueProduct {
  id: number;
  shopifyId: string | null;
  sku: string | null;
  commissionBps: number | null;
}

/**
 * The products the sale lines name (by Shopify product id or SKU) as one JSON value, lowest id
 * first, for the statement that takes the order's lock to read in the same round trip.
 */
export function catalogueOf(drafts: SaleLineDraft[]): SQL<CatalogueProduct[]> {
  const shopifyIds = [...new Set(drafts.flatMap((draft) => (draft.shopifyProductId ? [draft.shopifyProductId] : [])))];
  const skus = [...new Set(drafts.flatMap((draft) => (draft.sku ? [draft.sku] : [])))];
  return sql`(select coalesce(json_agg(json_build_object('id', ${products.id}, 'shopifyId', ${products.shopifyProductId}::text,
                'sku', ${products.sku}, 'commissionBps', ${products.commissionBps}) order by ${products.id}), '[]')
              from ${products}
              where ${products.shopifyProductId} = any(${sql.param(shopifyIds)}::bigint[]) or ${products.sku} = any(${sql.param(skus)}::text[]))`;
}

/** Each line's commission at the product's rate (from catalogueOf) or the configured default. */
export function priceSaleLines(drafts: SaleLineDraft[], catalogue: CatalogueProduct[], defaultCommissionBps: number): PricedSaleLine[] {
  const byShopifyId = new Map<string, CatalogueProduct>();
  const bySku = new Map<string, CatalogueProduct>();
  for (const product of catalogue) {
    if (product.shopifyId && !byShopifyId.has(product.shopifyId)) byShopifyId.set(product.shopifyId, product);
    if (product.sku && !bySku.has(product.sku)) bySku.set(product.sku, product);
  }
  return drafts.map((draft) => {
    const product = (draft.shopifyProductId && byShopifyId.get(draft.shopifyProductId)) || (draft.sku && bySku.get(draft.sku)) || undefined;
    return {
      ...draft,
      productId: product?.id ?? null,
      commissionOre: commissionOre(draft.amountOre, product?.commissionBps ?? defaultCommissionBps),
    };
  });
}

/** The sums an order of just these lines has. */
export const totalsOf = (lines: PricedSaleLine[]) => ({
  subtotalOre: lines.reduce((sum, line) => sum + line.amountOre, 0),
  commissionOre: lines.reduce((sum, line) => sum + line.commissionOre, 0),
});

/**
 * A statement of the caller's to run in the same round trip as the ledger's last write, as a CTE
 * (processWebhookEvent: its event marked processed). `name` names its text: one name, one text,
 * since the write it goes with is a prepared statement.
 */
export interface Alongside {
  name: string;
  cte: WithSubquery;
}

/**
 * Adds the sale lines the order does not have yet (by Shopify's line id); returns how many.
 * `payoutPeriods`: those of the order's group, when read already under the group's share lock.
 * `alongside`: see Alongside; `finished` is how many rows it returned, read with the lines added
 * (so only when a line is added). One prepared statement whatever the number of lines: the lines
 * go as one array per column.
 */
export async function insertSaleLines(
  tx: Tx,
  order: StoredOrder,
  lines: PricedSaleLine[],
  options: { payoutPeriods?: PayoutPeriod[]; alongside?: Alongside } = {},
): Promise<{ added: number; finished?: number }> {
  if (lines.length === 0) return { added: 0 };
  const bookedAt = options.payoutPeriods
    ? bookingInstantWithin(options.payoutPeriods, order.orderedAt)
    : await bookingInstant(tx, order.groupId, order.orderedAt);
  const { alongside } = options;
  const column = (name: keyof typeof orderLines._.columns) => sql.identifier(orderLines[name].name);
  const newLines = tx.$with('new_lines', { id: orderLines.id }).as(
    sql`insert into ${orderLines} (${column('orderId')}, ${column('kind')}, ${column('shopifyLineId')}, ${column('productId')},
          ${column('title')}, ${column('quantity')}, ${column('amountOre')}, ${column('commissionOre')}, ${column('groupId')},
          ${column('membershipId')}, ${column('bookedAt')})
        select ${order.id}, 'sale', line.shopify_line_id, line.product_id, line.title, line.quantity, line.amount_ore,
               line.commission_ore, ${order.groupId}::integer, ${order.membershipId}::integer, ${bookedAt}::timestamptz
        from unnest(${sql.param(lines.map((line) => line.shopifyLineId))}::bigint[], ${sql.param(lines.map((line) => line.productId))}::integer[],
                    ${sql.param(lines.map((line) => line.title))}::text[], ${sql.param(lines.map((line) => line.quantity))}::integer[],
                    ${sql.param(lines.map((line) => line.amountOre))}::bigint[], ${sql.param(lines.map((line) => line.commissionOre))}::bigint[])
             as line(shopify_line_id, product_id, title, quantity, amount_ore, commission_ore)
        on conflict (${column('orderId')}, ${column('kind')}, ${column('shopifyLineId')}) do nothing
        returning ${column('id')}`,
  );
  const added = await (alongside ? tx.with(alongside.cte, newLines) : tx.with(newLines))
    .select({
      id: newLines.id,
      finished: alongside ? sql`(select count(*) from ${alongside.cte})`.mapWith(Number) : sql`0`.mapWith(Number),
    })
    .from(newLines)
    .prepare(alongside ? `insert_sale_lines_with_${alongside.name}` : 'insert_sale_lines')
    .execute();
  return { added: added.length, finished: alongside && added[0] ? added[0].finished : undefined };
}

interface SaleLineState {
  id: number;
  shopifyLineId: string;
  productId: number | null;
  title: string;
  sale: LineFigures;
  remaining: LineFigures;
}

/** The order's sale lines with what is left of each after the refunds and cancellations so far. */
async function saleLinesWithRemainder(tx: Tx, orderId: number): Promise<Map<string, SaleLineState>> {
  const reversal = alias(orderLines, 'reversal');
  const rows = await tx
    .select({
      id: orderLines.id,
      shopifyLineId: sql<string>`${orderLines.shopifyLineId}::text`,
      productId: orderLines.productId,
      title: orderLines.title,
      quantity: orderLines.quantity,
      amountOre: orderLines.amountOre,
      commissionOre: orderLines.commissionOre,
      reversedQuantity: sql`coalesce(sum(${reversal.quantity}), 0)`.mapWith(Number),
      reversedAmountOre: sql`coalesce(sum(${reversal.amountOre}), 0)`.mapWith(Number),
      reversedCommissionOre: sql`coalesce(sum(${reversal.commissionOre}), 0)`.mapWith(Number),
    })
    .from(orderLines)
    // The order_id condition lets the join use the order's index instead of scanning for reverses_line_id.
    .leftJoin(reversal, and(eq(reversal.orderId, orderLines.orderId), eq(reversal.reversesLineId, orderLines.id)))
    .where(and(eq(orderLines.orderId, orderId), eq(orderLines.kind, 'sale')))
    .groupBy(orderLines.id)
    .orderBy(asc(orderLines.id));
  return new Map(
    rows.map((row) => [
      row.shopifyLineId,
      {
        id: row.id,
        shopifyLineId: row.shopifyLineId,
        productId: row.productId,
        title: row.title,
        sale: { quantity: row.quantity, amountOre: row.amountOre, commissionOre: row.commissionOre },
        remaining: {
          quantity: row.quantity + row.reversedQuantity,
          amountOre: row.amountOre + row.reversedAmountOre,
          commissionOre: row.commissionOre + row.reversedCommissionOre,
        },
      },
    ]),
  );
}

async function insertReversal(
  tx: Tx,
  order: StoredOrder,
  options: { kind: 'refund' | 'cancellation'; shopifyLineId: string; saleLine: SaleLineState; figures: LineFigures; bookedAt: Date },
): Promise<boolean> {
  const [row] = await tx
    .insert(orderLines)
    .values({
      orderId: order.id,
      kind: options.kind,
      shopifyLineId: shopifyIdParam(options.shopifyLineId),
      reversesLineId: options.saleLine.id,
      productId: options.saleLine.productId,
      title: options.saleLine.title,
      quantity: -options.figures.quantity,
      amountOre: -options.figures.amountOre,
      commissionOre: -options.figures.commissionOre,
      groupId: order.groupId,
      membershipId: order.membershipId,
      bookedAt: await bookingInstant(tx, order.groupId, options.bookedAt),
    })
    .onConflictDoNothing({ target: [orderLines.orderId, orderLines.kind, orderLines.shopifyLineId] })
    .returning({ id: orderLines.id });
  if (row) {
    const { remaining } = options.saleLine;
    remaining.quantity -= options.figures.quantity;
    remaining.amountOre -= options.figures.amountOre;
    remaining.commissionOre -= options.figures.commissionOre;
  }
  return Boolean(row);
}

/**
 * One refund line per refunded order line, booked when Shopify processed the refund. A refund
 * seen before (by its refund line id) adds nothing; one for a line already cancelled takes back
 * nothing, since the cancellation already did.
 */
export async function applyRefund(tx: Tx, order: StoredOrder, refund: TShopifyRefund): Promise<number> {
  if (refund.refund_line_items.length === 0) return 0;
  const saleLines = await saleLinesWithRemainder(tx, order.id);
  const known = await tx
    .select({ shopifyLineId: sql<string>`${orderLines.shopifyLineId}::text` })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, order.id), eq(orderLines.kind, 'refund')));
  const seen = new Set(known.map((line) => line.shopifyLineId));
  const bookedAt = refund.processed_at ?? refund.created_at ?? new Date();
  let added = 0;
  for (const item of refund.refund_line_items) {
    const saleLine = saleLines.get(item.line_item_id);
    if (seen.has(item.id) || !saleLine) continue;
    const figures = reversalOf(saleLine.sale, saleLine.remaining, item.quantity);
    if (figures && (await insertReversal(tx, order, { kind: 'refund', shopifyLineId: item.id, saleLine, figures, bookedAt }))) added++;
  }
  return added;
}

/** Takes back whatever is left of every sale line, booked when the order was cancelled. */
export async function cancelRemainder(tx: Tx, order: StoredOrder, cancelledAt: Date): Promise<number> {
  let added = 0;
  for (const saleLine of (await saleLinesWithRemainder(tx, order.id)).values()) {
    const figures = reversalOf(saleLine.sale, saleLine.remaining, 'rest');
    if (
      figures &&
      (await insertReversal(tx, order, {
        kind: 'cancellation',
        shopifyLineId: saleLine.shopifyLineId,
        saleLine,
        figures,
        bookedAt: cancelledAt,
      }))
    )
      added++;
  }
  return added;
}

/** orders.subtotal_ore and commission_ore are by definition the sums of the order's lines. */
export async function recomputeOrderTotals(tx: Tx, orderId: number): Promise<void> {
  await tx
    .update(orders)
    .set({
      subtotalOre: sql`(select coalesce(sum(${orderLines.amountOre}), 0) from ${orderLines} where ${orderLines.orderId} = ${orderId})`,
      commissionOre: sql`(select coalesce(sum(${orderLines.commissionOre}), 0) from ${orderLines} where ${orderLines.orderId} = ${orderId})`,
      updatedAt: new Date(),
    })
    .where(eq(orders.id, orderId));
}
