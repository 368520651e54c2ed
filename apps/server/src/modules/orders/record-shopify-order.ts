import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { groups, memberships, orderLines, orders, users, webhookEvents } from '../../db/schema.js';
import { parseShopifyJson } from '../../lib/shopify-json.js';
import { ZShopifyRefundSchema, type TShopifyOrder, type TShopifyRefund } from '../../lib/shopify-payloads.js';
import {
  applyRefund,
  cancelRemainder,
  insertSaleLines,
  priceSaleLines,
  recomputeOrderTotals,
  shopifyIdParam,
  shopifyOrderLock,
  storedOrderColumns,
  totalsOf,
  type StoredOrder,
} from './order-ledger.js';
import { linkCodeCandidates, orderStateOf, orderedAtOf, saleLinesOf, shopifyVersionOf } from './shopify-order.js';

/**
 * Takes the order's lock and finds the first candidate code, in the order given, that is some
 * membership's personal link code. One statement, since every delivery does both: the left join
 * keeps the lock's row whether or not a code matches, so the lock is always taken.
 * A code of an archived group is not a seller any more (decision 027): it comes back as
 * `archivedCode`, so that the order waits, unattributed, for a superadmin who sees whose link it was.
 */
async function lockOrderAndFindSeller(tx: Tx, shopifyOrderId: string, codes: string[]) {
  const rows = await tx
    .select({
      membershipId: memberships.id,
      groupId: memberships.groupId,
      linkCode: memberships.linkCode,
      archived: groups.archived,
      guardianConsent: users.guardianConsent,
    })
    .from(sql`(select ${shopifyOrderLock(shopifyOrderId)}) as order_lock`)
    .leftJoin(memberships, codes.length > 0 ? inArray(memberships.linkCode, codes) : sql`false`)
    .leftJoin(groups, eq(groups.id, memberships.groupId))
    .leftJoin(users, eq(users.id, memberships.userId));
  let archivedCode: string | undefined;
  let awaitingConsentCode: string | undefined;
  for (const code of codes) {
    const row = rows.find((candidate) => candidate.linkCode === code);
    if (row?.membershipId == null || row.groupId == null) continue;
    if (row.archived) {
      archivedCode ??= code;
      continue;
    }
    // A pupil under 13 whose guardian has not approved yet sells for nobody (issue 22): the order
    // waits for the superadmin with the code, as an archived group's does.
    if (row.guardianConsent === 'pending') {
      awaitingConsentCode ??= code;
      continue;
    }
    return { seller: { membershipId: row.membershipId, groupId: row.groupId, linkCode: code }, archivedCode, awaitingConsentCode };
  }
  return { seller: undefined, archivedCode, awaitingConsentCode };
}

/** refunds/create events stored before their order existed (Shopify does not keep delivery order). */
async function refundsWaitingFor(tx: Tx, shopifyOrderId: string): Promise<TShopifyRefund[]> {
  const events = await tx
    .select({ payload: webhookEvents.payload })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.shopifyOrderId, shopifyIdParam(shopifyOrderId)), eq(webhookEvents.topic, 'refunds/create')));
  return events.flatMap((event) => {
    const parsed = ZShopifyRefundSchema.safeParse(parseShopifyJson(event.payload));
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * Records one delivery of an order (orders/create, updated, paid or cancelled: each carries the
 * whole order). Safe to run any number of times, in any order, at the same moment as other
 * deliveries: the order's fields change only for a newer `updated_at`, lines are only ever added
 * (each keyed by Shopify's line id), and the order's lock serialises everything about it.
 * An order whose codes match no seller is kept unattributed; a later delivery or a superadmin
 * may attribute it. Returns what happened, in Swedish, for the event log.
 */
export async function recordShopifyOrder(
  tx: Tx,
  options: { order: TShopifyOrder; sourceEventId: number; defaultCommissionBps: number },
): Promise<string> {
  const { order } = options;
  const candidates = linkCodeCandidates(order);
  const { seller, archivedCode, awaitingConsentCode } = await lockOrderAndFindSeller(
    tx,
    order.id,
    candidates.map((candidate) => candidate.code),
  );
  // A discount code that matched no seller is an ordinary discount, not a code worth showing;
  // an archived group's link code is, since it tells the superadmin whose sale it was.
  const refCode =
    seller?.linkCode ??
    archivedCode ??
    awaitingConsentCode ??
    candidates.find((candidate) => candidate.source !== 'discount_code')?.code ??
    null;
  const version = shopifyVersionOf(order);
  const fields = {
    orderName: order.name ?? null,
    shopifyUpdatedAt: version,
    state: orderStateOf(order),
    currency: order.currency ?? 'SEK',
    sourceEventId: options.sourceEventId,
  };
  const saleLines = await priceSaleLines(tx, saleLinesOf(order), options.defaultCommissionBps);

  const [inserted] = await tx
    .insert(orders)
    .values({
      shopifyOrderId: shopifyIdParam(order.id),
      ...fields,
      orderedAt: orderedAtOf(order),
      refCode,
      membershipId: seller?.membershipId ?? null,
      groupId: seller?.groupId ?? null,
      // A new order is written with the sums of its sale lines, inserted below; any other line
      // (a refund, a cancellation) makes them summed again from the lines.
      ...totalsOf(saleLines),
    })
    .onConflictDoNothing({ target: orders.shopifyOrderId })
    .returning(storedOrderColumns);

  let stored: StoredOrder;
  let newer = true;
  let cancelledAt = order.cancelled_at ?? version;
  if (inserted) {
    stored = inserted;
  } else {
    const [existing] = await tx
      .select({ ...storedOrderColumns, shopifyUpdatedAt: orders.shopifyUpdatedAt, refCode: orders.refCode })
      .from(orders)
      .where(eq(orders.shopifyOrderId, shopifyIdParam(order.id)))
      .for('update');
    if (!existing) throw new Error(`order ${order.id} finns varken som ny eller befintlig`);
    newer = !existing.shopifyUpdatedAt || version > existing.shopifyUpdatedAt;
    if (!order.cancelled_at && existing.shopifyUpdatedAt) cancelledAt = existing.shopifyUpdatedAt;
    const attributeNow = existing.membershipId === null && seller !== undefined;
    const changes: Partial<typeof orders.$inferInsert> = {};
    // Shopify never takes a cancellation back, so a state once cancelled stays cancelled.
    if (newer) Object.assign(changes, fields, { state: existing.state === 'cancelled' ? 'cancelled' : fields.state });
    if (attributeNow) Object.assign(changes, { membershipId: seller.membershipId, groupId: seller.groupId, refCode: seller.linkCode });
    else if (existing.refCode === null && refCode !== null) changes.refCode = refCode;
    stored = { ...existing, state: changes.state ?? existing.state };
    if (Object.keys(changes).length > 0) await tx.update(orders).set(changes).where(eq(orders.id, existing.id));
    if (attributeNow) {
      stored = { ...stored, membershipId: seller.membershipId, groupId: seller.groupId };
      // Lines of an unattributed order have no group, so no payout can have settled one.
      await tx
        .update(orderLines)
        .set({ membershipId: seller.membershipId, groupId: seller.groupId })
        .where(eq(orderLines.orderId, existing.id));
    }
  }

  const newSaleLines = await insertSaleLines(tx, stored, saleLines);
  let added = newSaleLines;
  const refunds = inserted ? [...order.refunds, ...(await refundsWaitingFor(tx, order.id))] : order.refunds;
  for (const refund of refunds) added += await applyRefund(tx, stored, refund);
  if (stored.state === 'cancelled') added += await cancelRemainder(tx, stored, cancelledAt);
  // Shopify sending one line id twice would leave a new order's sums above its lines.
  const sumsHold = inserted && added === saleLines.length && newSaleLines === saleLines.length;
  if (!sumsHold) await recomputeOrderTotals(tx, stored.id);

  const name = order.name ?? order.id;
  const what = inserted ? 'registrerad' : newer ? 'uppdaterad' : 'oförändrad (portalen har redan en nyare version)';
  const who =
    stored.membershipId !== null
      ? `säljare med länkkod ${seller?.linkCode ?? refCode ?? '?'}`
      : archivedCode !== undefined
        ? `utan säljare (länkkod ${archivedCode} hör till en arkiverad grupp)`
        : awaitingConsentCode !== undefined
          ? `utan säljare (länkkod ${awaitingConsentCode} väntar på vårdnadshavarens godkännande)`
          : 'utan säljare (ingen känd länkkod)';
  return `Order ${name} ${what}, ${added} nya rader, ${who}`;
}
