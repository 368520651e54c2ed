/**
 * The order lines of a Shopify order as a ledger: sale lines are written once, refunds and
 * cancellations are new negative lines pointing at the sale they reverse, and no line is ever
 * changed afterwards, so a line settled in a payout stays exactly as it was settled (DESIGN D8).
 * Every function here runs inside the transaction that holds the order's lock.
 */
import { and, asc, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { transactionStatement } from '../../db/prepared.js';
import type { Tx } from '../../db/client.js';
import { orderLines, orders } from '../../db/schema.js';
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
export const shopifyOrderLock = (shopifyOrderId: string | Placeholder): SQL =>
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

/**
 * When a line is booked: on the day it happened (an order placed, a refund processed, an order
 * cancelled), by Shopify's clock, never in the future (issue 30). A line of a day a payout already
 * covers stays on that day: the next payout of the group settles it as a correction of that payout
 * (create-payout.ts, decision 065), instead of the line moving to a later day it did not happen on.
 */
export const bookedAtFor = (happened: Date, now = new Date()): Date => (happened > now ? now : happened);

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

/** Each line's commission at the product's rate (the catalogue rows the lines name) or the configured default. */
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
 * A statement of the caller's to run in the same round trip as the ledger's last write
 * (processWebhookEvent: its event marked processed), with the values of its placeholders, which
 * are named apart from the ledger's own. One name, one statement text.
 */
export interface Alongside {
  name: string;
  statement: SQL;
  values: Record<string, unknown>;
}

/** The sale lines an order does not have yet (by Shopify's line id), as one array per column. */
const newSaleLines = sql`new_lines as (
  insert into order_lines (order_id, kind, shopify_line_id, product_id, title, quantity, amount_ore, commission_ore,
                           group_id, membership_id, booked_at)
  select ${sql.placeholder('orderId')}::bigint, 'sale', line.shopify_line_id, line.product_id, line.title, line.quantity,
         line.amount_ore, line.commission_ore, ${sql.placeholder('groupId')}::integer, ${sql.placeholder('membershipId')}::integer,
         ${sql.placeholder('bookedAt')}::timestamptz
    from unnest(${sql.placeholder('shopifyLineIds')}::bigint[], ${sql.placeholder('productIds')}::integer[],
                ${sql.placeholder('titles')}::text[], ${sql.placeholder('quantities')}::integer[],
                ${sql.placeholder('amountsOre')}::bigint[], ${sql.placeholder('commissionsOre')}::bigint[])
         as line(shopify_line_id, product_id, title, quantity, amount_ore, commission_ore)
  on conflict (order_id, kind, shopify_line_id) do nothing
  returning id)`;

const insertNewSaleLines = transactionStatement<{ added: number }>(
  'insert_sale_lines',
  sql`with ${newSaleLines} select count(*)::int as added from new_lines`,
);

/** insertNewSaleLines with an Alongside statement, one prepared statement per Alongside name. */
const withAlongside = new Map<string, ReturnType<typeof transactionStatement<{ added: number; finished: number }>>>();
function insertNewSaleLinesAlongside(alongside: Alongside) {
  let statement = withAlongside.get(alongside.name);
  if (!statement) {
    statement = transactionStatement(
      `insert_sale_lines_with_${alongside.name}`,
      sql`with alongside as (${alongside.statement}), ${newSaleLines}
          select (select count(*) from new_lines)::int as added, (select count(*) from alongside)::int as finished`,
    );
    withAlongside.set(alongside.name, statement);
  }
  return statement;
}

/**
 * Adds the sale lines the order does not have yet (by Shopify's line id); returns how many.
 * `alongside`: see Alongside; `finished` is how many rows it returned.
 */
export async function insertSaleLines(
  tx: Tx,
  order: StoredOrder,
  lines: PricedSaleLine[],
  options: { alongside?: Alongside } = {},
): Promise<{ added: number; finished?: number }> {
  if (lines.length === 0) return { added: 0 };
  const bookedAt = bookedAtFor(order.orderedAt);
  const values = {
    orderId: order.id,
    groupId: order.groupId,
    membershipId: order.membershipId,
    bookedAt,
    shopifyLineIds: lines.map((line) => line.shopifyLineId),
    productIds: lines.map((line) => line.productId),
    titles: lines.map((line) => line.title),
    quantities: lines.map((line) => line.quantity),
    amountsOre: lines.map((line) => line.amountOre),
    commissionsOre: lines.map((line) => line.commissionOre),
  };
  const { alongside } = options;
  if (!alongside) return { added: (await insertNewSaleLines(tx, values))[0]!.added };
  const [result] = await insertNewSaleLinesAlongside(alongside)(tx, { ...alongside.values, ...values });
  return { added: result!.added, finished: result!.finished };
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
      bookedAt: bookedAtFor(options.bookedAt),
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
