import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { orders } from '../../db/schema.js';
import type { TShopifyRefund } from '../../lib/shopify-payloads.js';
import { applyRefund, lockShopifyOrder, recomputeOrderTotals, shopifyIdParam, storedOrderColumns } from './order-ledger.js';
import { newLinesText } from './outcome-text.js';

/**
 * Records a refunds/create delivery. A refund that arrives before its order is left in the event
 * log: `recordShopifyOrder` applies it when the order comes.
 */
export async function recordShopifyRefund(tx: Tx, options: { refund: TShopifyRefund }): Promise<string> {
  const { refund } = options;
  await lockShopifyOrder(tx, refund.order_id);
  const [order] = await tx
    .select(storedOrderColumns)
    .from(orders)
    .where(eq(orders.shopifyOrderId, shopifyIdParam(refund.order_id)))
    .for('update');
  if (!order) return `Återbetalningen väntar på order ${refund.order_id}: den räknas när ordern kommer`;
  const added = await applyRefund(tx, order, refund);
  await recomputeOrderTotals(tx, order.id);
  return `Återbetalning på order ${order.orderName ?? refund.order_id}: ${newLinesText(added)}`;
}
