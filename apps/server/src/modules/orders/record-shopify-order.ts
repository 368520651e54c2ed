import { eq, sql, type SQL } from 'drizzle-orm';
import { CLASS_REF_PREFIX } from '@saljportalen/contract';
import type { Tx } from '../../db/client.js';
import { transactionStatement } from '../../db/prepared.js';
import { groups, orderLines, orders } from '../../db/schema.js';
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
  type CatalogueProduct,
  type StoredOrder,
} from './order-ledger.js';
import { linkCodeCandidates, orderStateOf, orderedAtOf, saleLinesOf, shopifyVersionOf, type SaleLineDraft } from './shopify-order.js';
import { newLinesText } from './outcome-text.js';

/**
 * Takes the order's lock, finds the memberships whose personal link code is one of the candidate
 * codes, share-locks their groups (so no payout of the group is created while its lines are being
 * written, and a payout sees the order whole or not at all), and reads the catalogue rows of the
 * sale lines. One statement, since every delivery does all of it (decision 046): the left joins
 * keep the lock's row whether or not a code matches, so the lock is always taken, and the group's
 * lock is taken after the order's (the lateral subquery runs for each row the lock's row joins).
 */
const lockOrderAndFindSellers = transactionStatement<{
  membership_id: number | null;
  group_id: number | null;
  link_code: string | null;
  archived: boolean | null;
  guardian_consent: string | null;
  catalogue: CatalogueProduct[];
}>(
  'record_order_lock',
  sql`select m.id as membership_id, m.group_id, m.link_code, g.archived, u.guardian_consent,
             (select coalesce(json_agg(json_build_object('id', p.id, 'shopifyId', p.shopify_product_id::text, 'sku', p.sku,
                                                         'commissionBps', p.commission_bps) order by p.id), '[]')
                from products p
               where p.shopify_product_id = any(${sql.placeholder('shopifyProductIds')}::bigint[])
                  or p.sku = any(${sql.placeholder('skus')}::text[])) as catalogue
        from (select ${shopifyOrderLock(sql.placeholder('shopifyOrderId'))}) as order_lock
        left join memberships m on m.link_code = any(${sql.placeholder('codes')}::text[])
        left join lateral (select g.archived from groups g where g.id = m.group_id for share) g on true
        left join users u on u.id = m.user_id`,
);

/**
 * Takes the order's lock and finds the first candidate code, in the order given, that is some
 * membership's personal link code; reads the catalogue rows of the sale lines on the way.
 * A code of an archived group is not a seller any more (decision 027): it comes back as
 * `archivedCode`, so that the order waits, unattributed, for a superadmin who sees whose link it was.
 */
async function lockOrderAndFindSeller(tx: Tx, shopifyOrderId: string, codes: string[], drafts: SaleLineDraft[]) {
  const rows = await lockOrderAndFindSellers(tx, {
    shopifyOrderId,
    codes,
    shopifyProductIds: [...new Set(drafts.flatMap((draft) => (draft.shopifyProductId ? [draft.shopifyProductId] : [])))],
    skus: [...new Set(drafts.flatMap((draft) => (draft.sku ? [draft.sku] : [])))],
  });
  const catalogue = rows[0]?.catalogue ?? [];
  let archivedCode: string | undefined;
  let awaitingConsentCode: string | undefined;
  for (const code of codes) {
    const row = rows.find((candidate) => candidate.link_code === code);
    if (row?.membership_id == null || row.group_id == null) continue;
    if (row.archived) {
      archivedCode ??= code;
      continue;
    }
    // A pupil under 13 whose guardian has not approved yet sells for nobody (issue 22): the order
    // waits for the superadmin with the code, as an archived group's does.
    if (row.guardian_consent === 'pending') {
      awaitingConsentCode ??= code;
      continue;
    }
    return {
      seller: { membershipId: row.membership_id as number | null, groupId: row.group_id, linkCode: code },
      archivedCode,
      awaitingConsentCode,
      catalogue,
    };
  }
  // No pupil's code: a class link's (issue 32) makes the order the class's and no pupil's. Read
  // only for such an order, its group share-locked as a seller's is, after the order's lock.
  for (const code of codes.filter((candidate) => candidate.startsWith(CLASS_REF_PREFIX))) {
    const [group] = await tx
      .select({ id: groups.id, archived: groups.archived })
      .from(groups)
      .where(eq(groups.classLinkCode, code.slice(CLASS_REF_PREFIX.length)))
      .for('share');
    if (!group) continue;
    if (group.archived) {
      archivedCode ??= code;
      continue;
    }
    return { seller: { membershipId: null, groupId: group.id, linkCode: code }, archivedCode, awaitingConsentCode, catalogue };
  }
  return { seller: undefined, archivedCode, awaitingConsentCode, catalogue };
}

/**
 * Inserts the order unless Shopify's id is known already. A new order's group is the seller's,
 * share-locked by the statement before: its payout periods are read in this same round trip, and
 * so are the refunds/create events stored before their order (Shopify does not keep delivery
 * order), as the text of their payloads (parsed by parseShopifyJson, for the 64-bit ids). Being a
 * statement after the one that took the order's lock, it sees a refund whose processing found no
 * order.
 */
const insertNewOrder = transactionStatement<{ id: string; waiting_refunds: string[] }>(
  'record_order_insert',
  sql`insert into orders (shopify_order_id, order_name, ordered_at, shopify_updated_at, membership_id, group_id, ref_code,
                          subtotal_ore, commission_ore, state, currency, source_event_id)
      values (${sql.placeholder('shopifyOrderId')}::bigint, ${sql.placeholder('orderName')}::text,
              ${sql.placeholder('orderedAt')}::timestamptz, ${sql.placeholder('shopifyUpdatedAt')}::timestamptz,
              ${sql.placeholder('membershipId')}::integer, ${sql.placeholder('groupId')}::integer, ${sql.placeholder('refCode')}::text,
              ${sql.placeholder('subtotalOre')}::bigint, ${sql.placeholder('commissionOre')}::bigint, ${sql.placeholder('state')}::text,
              ${sql.placeholder('currency')}::text, ${sql.placeholder('sourceEventId')}::bigint)
      on conflict (shopify_order_id) do nothing
      returning id::text,
        (select coalesce(json_agg(e.payload order by e.id), '[]')
           from webhook_events e where e.shopify_order_id = orders.shopify_order_id and e.topic = 'refunds/create') as waiting_refunds`,
);

const parseRefunds = (payloads: string[]): TShopifyRefund[] =>
  payloads.flatMap((payload) => {
    const parsed = ZShopifyRefundSchema.safeParse(parseShopifyJson(payload));
    return parsed.success ? [parsed.data] : [];
  });

/**
 * The caller's own last statement for a delivery (processWebhookEvent: its event marked processed
 * with the outcome), written with placeholders named apart from the ledger's own. When the outcome
 * is known before the order's last write, as for a new order with only sale lines (the common
 * delivery), the statement goes with that write, one round trip fewer (see Alongside); `finished`
 * then says how many rows it returned.
 */
export interface DeliveryFinish {
  name: string;
  statement: SQL;
  values(outcome: string): Record<string, unknown>;
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

  const orderedAt = orderedAtOf(order);
  const membershipId = seller?.membershipId ?? null;
  const groupId = seller?.groupId ?? null;
  // A new order is written with the sums of its sale lines, inserted below; any other line (a
  // refund, a cancellation) makes them summed again from the lines.
  const totals = totalsOf(saleLines);
  const [newOrder] = await insertNewOrder(tx, {
    shopifyOrderId: order.id,
    ...fields,
    orderedAt,
    membershipId,
    groupId,
    refCode,
    ...totals,
  });
  const inserted = newOrder && {
    stored: { id: Number(newOrder.id), orderName: fields.orderName, membershipId, groupId, orderedAt, state: fields.state },
    waitingRefunds: newOrder.waiting_refunds,
  };

  let stored: StoredOrder;
  let newer = true;
  let cancelledAt = order.cancelled_at ?? version;
  if (inserted) {
    stored = inserted.stored;
  } else {
    const [existing] = await tx
      .select({ ...storedOrderColumns, shopifyUpdatedAt: orders.shopifyUpdatedAt, refCode: orders.refCode })
      .from(orders)
      .where(eq(orders.shopifyOrderId, shopifyIdParam(order.id)))
      .for('update');
    if (!existing) throw new Error(`order ${order.id} finns varken som ny eller befintlig`);
    newer = !existing.shopifyUpdatedAt || version > existing.shopifyUpdatedAt;
    if (!order.cancelled_at && existing.shopifyUpdatedAt) cancelledAt = existing.shopifyUpdatedAt;
    // Unattributed is no group: an order through a class link has its group and no pupil.
    const attributeNow = existing.groupId === null && seller !== undefined;
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
        : stored.groupId !== null
          ? `klassen (klasslänk ${seller?.linkCode ?? refCode ?? '?'})`
          : archivedCode !== undefined
            ? `utan säljare (länkkod ${archivedCode} hör till en arkiverad grupp)`
            : awaitingConsentCode !== undefined
              ? `utan säljare (länkkod ${awaitingConsentCode} väntar på vårdnadshavarens godkännande)`
              : 'utan säljare (ingen känd länkkod)';
    return `Order ${name} ${what}, ${newLinesText(added)}, ${who}`;
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
      alongside: { name: options.finish.name, statement: options.finish.statement, values: options.finish.values(outcome) },
    });
    if (added !== saleLines.length) throw new Error(`order ${order.id}: ${added} av ${saleLines.length} nya rader sparades`);
    return { outcome, finished };
  }

  const newSaleLines = (await insertSaleLines(tx, stored, saleLines)).added;
  let added = newSaleLines;
  for (const refund of refunds) added += await applyRefund(tx, stored, refund);
  if (stored.state === 'cancelled') added += await cancelRemainder(tx, stored, cancelledAt);
  // Shopify sending one line id twice would leave a new order's sums above its lines.
  const sumsHold = inserted && added === saleLines.length && newSaleLines === saleLines.length;
  if (!sumsHold) await recomputeOrderTotals(tx, stored.id);
  return { outcome: describe(added) };
}
