import { eq, sql, type SQL, type WithSubquery } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { groups, memberships, orderLines, orders, users, webhookEvents } from '../../db/schema.js';
import { parseShopifyJson } from '../../lib/shopify-json.js';
import { ZShopifyRefundSchema, type TShopifyOrder, type TShopifyRefund } from '../../lib/shopify-payloads.js';
import {
  applyRefund,
  cancelRemainder,
  catalogueOf,
  insertSaleLines,
  payoutPeriodsOf,
  priceSaleLines,
  recomputeOrderTotals,
  shopifyIdParam,
  shopifyOrderLock,
  storedOrderColumns,
  totalsOf,
  writtenColumn,
  type StoredOrder,
} from './order-ledger.js';
import { linkCodeCandidates, orderStateOf, orderedAtOf, saleLinesOf, shopifyVersionOf, type SaleLineDraft } from './shopify-order.js';

/**
 * Takes the order's lock, finds the first candidate code, in the order given, that is some
 * membership's personal link code, share-locks that membership's group (see bookingInstant: the
 * next statement reads its payout periods, current since no payout of it can be created now), and
 * reads the catalogue rows of the sale lines. One statement, since every delivery does all of it
 * (decision 046): the left joins keep the lock's row whether or not a code matches, so the lock is
 * always taken, and the group's lock is taken after the order's (the lateral subquery runs for
 * each row the lock's row joins).
 * A code of an archived group is not a seller any more (decision 027): it comes back as
 * `archivedCode`, so that the order waits, unattributed, for a superadmin who sees whose link it was.
 */
async function lockOrderAndFindSeller(tx: Tx, shopifyOrderId: string, codes: string[], drafts: SaleLineDraft[]) {
  const sellerGroup = tx
    .select({ id: groups.id, archived: groups.archived })
    .from(groups)
    .where(eq(groups.id, memberships.groupId))
    .for('share')
    .as('seller_group');
  const rows = await tx
    .select({
      membershipId: memberships.id,
      groupId: memberships.groupId,
      linkCode: memberships.linkCode,
      archived: sellerGroup.archived,
      guardianConsent: users.guardianConsent,
      catalogue: catalogueOf(drafts),
    })
    .from(sql`(select ${shopifyOrderLock(shopifyOrderId)}) as order_lock`)
    .leftJoin(memberships, sql`${memberships.linkCode} = any(${sql.param(codes)}::text[])`)
    .leftJoinLateral(sellerGroup, sql`true`)
    .leftJoin(users, eq(users.id, memberships.userId))
    .prepare('record_order_lock')
    .execute();
  const catalogue = rows[0]?.catalogue ?? [];
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
    return {
      seller: { membershipId: row.membershipId, groupId: row.groupId, linkCode: code },
      archivedCode,
      awaitingConsentCode,
      catalogue,
    };
  }
  return { seller: undefined, archivedCode, awaitingConsentCode, catalogue };
}

/**
 * refunds/create events stored before their order existed (Shopify does not keep delivery order),
 * as one JSON array of their payloads' text (parsed by parseShopifyJson, for the 64-bit ids).
 * Read in the statement that inserts the order, after the one that took the order's lock, so
 * that a refund whose processing found no order is seen here.
 */
const waitingRefundsOf = (shopifyOrderId: SQL): SQL<string[]> =>
  sql`(select coalesce(json_agg(${webhookEvents.payload} order by ${webhookEvents.id}), '[]') from ${webhookEvents}
       where ${webhookEvents.shopifyOrderId} = ${shopifyOrderId} and ${webhookEvents.topic} = 'refunds/create')`;

const parseRefunds = (payloads: string[]): TShopifyRefund[] =>
  payloads.flatMap((payload) => {
    const parsed = ZShopifyRefundSchema.safeParse(parseShopifyJson(payload));
    return parsed.success ? [parsed.data] : [];
  });

/**
 * The caller's own last statement for a delivery, as a CTE named for its text (processWebhookEvent:
 * its event marked processed with the outcome). When the outcome is known before the order's last
 * write, as for a new order with only sale lines (the common delivery), the statement goes with
 * that write, one round trip fewer; `finished` then says how many rows it returned.
 */
export interface DeliveryFinish {
  name: string;
  cte(outcome: string): WithSubquery;
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
  options: { order: TShopifyOrder; sourceEventId: number; defaultCommissionBps: number; finish?: DeliveryFinish },
): Promise<{ outcome: string; finished?: number }> {
  const { order } = options;
  const candidates = linkCodeCandidates(order);
  const drafts = saleLinesOf(order);
  const { seller, archivedCode, awaitingConsentCode, catalogue } = await lockOrderAndFindSeller(
    tx,
    order.id,
    candidates.map((candidate) => candidate.code),
    drafts,
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
  const saleLines = priceSaleLines(drafts, catalogue, options.defaultCommissionBps);

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
    // A new order's group is the seller's, share-locked above: its payout periods, and the
    // refunds that came first, are read in this same round trip.
    .returning({
      ...storedOrderColumns,
      payoutPeriods: payoutPeriodsOf(writtenColumn(orders.groupId)),
      waitingRefunds: waitingRefundsOf(writtenColumn(orders.shopifyOrderId)),
    })
    .prepare('record_order_insert')
    .execute();

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

  const refunds = inserted ? [...order.refunds, ...parseRefunds(inserted.waitingRefunds)] : order.refunds;
  const describe = (added: number) => {
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
  };

  // A new order of distinct sale lines and nothing to take back: every line is added (nothing of
  // the order existed), its sums are those it was inserted with, and the outcome is known now.
  const onlyNewSaleLines =
    inserted !== undefined &&
    saleLines.length > 0 &&
    refunds.length === 0 &&
    stored.state !== 'cancelled' &&
    new Set(saleLines.map((line) => line.shopifyLineId)).size === saleLines.length;
  if (onlyNewSaleLines && options.finish) {
    const outcome = describe(saleLines.length);
    const { added, finished } = await insertSaleLines(tx, stored, saleLines, {
      payoutPeriods: inserted.payoutPeriods,
      alongside: { name: options.finish.name, cte: options.finish.cte(outcome) },
    });
    if (added !== saleLines.length) throw new Error(`order ${order.id}: ${added} av ${saleLines.length} nya rader sparades`);
    return { outcome, finished };
  }

  const newSaleLines = (await insertSaleLines(tx, stored, saleLines, { payoutPeriods: inserted?.payoutPeriods })).added;
  let added = newSaleLines;
  for (const refund of refunds) added += await applyRefund(tx, stored, refund);
  if (stored.state === 'cancelled') added += await cancelRemainder(tx, stored, cancelledAt);
  // Shopify sending one line id twice would leave a new order's sums above its lines.
  const sumsHold = inserted && added === saleLines.length && newSaleLines === saleLines.length;
  if (!sumsHold) await recomputeOrderTotals(tx, stored.id);
  return { outcome: describe(added) };
}
