/**
 * What is stored of a Shopify webhook (issue 22, decision 035): only the fields the ledger reads
 * (lib/shopify-payloads.ts), so that a replay does exactly what the first processing did, and
 * nothing about the buyer: no name, address, e-mail, phone, IP, note or customer. Reduced at
 * receipt, before the event is stored; events stored before that are reduced at start (reduce-stored-payloads.ts).
 *
 * The payload is picked by an allow-list of Shopify's paths, never by a list of what to remove, so a
 * field Shopify adds later is not stored either. A value of the wrong kind is kept as far as it is
 * plain (a string, a number) and otherwise emptied, so a payload the ledger refuses is still refused
 * the same way on replay, without keeping what it held.
 */

import { toSingleLineText } from '@saljportalen/contract';

/** `true`: a plain value; an object: its keys; a one-element array: a list of that shape. */
type Shape = true | { readonly [key: string]: Shape } | readonly [Shape];

const LINE_ITEM: Shape = {
  id: true,
  product_id: true,
  sku: true,
  title: true,
  name: true,
  quantity: true,
  price: true,
  gift_card: true,
  discount_allocations: [{ amount: true }],
  tax_lines: [{ price: true }],
};

const REFUND: Shape = {
  id: true,
  order_id: true,
  created_at: true,
  processed_at: true,
  refund_line_items: [{ id: true, line_item_id: true, quantity: true }],
};

const ORDER: Shape = {
  id: true,
  name: true,
  created_at: true,
  processed_at: true,
  updated_at: true,
  cancelled_at: true,
  financial_status: true,
  currency: true,
  taxes_included: true,
  test: true,
  // Cart attributes: only `ref` (the personal link code) is kept; see reduceShopifyPayload.
  note_attributes: [{ name: true, value: true }],
  landing_site_ref: true,
  discount_codes: [{ code: true }],
  line_items: [LINE_ITEM],
  refunds: [REFUND],
};

const PRODUCT: Shape = {
  id: true,
  title: true,
  body_html: true,
  status: true,
  updated_at: true,
  variants: [{ sku: true, price: true }],
  image: { src: true },
  images: [{ src: true }],
};

const SHAPES: Record<string, Shape> = {
  'orders/create': ORDER,
  'orders/updated': ORDER,
  'orders/paid': ORDER,
  'orders/cancelled': ORDER,
  'refunds/create': REFUND,
  'products/create': PRODUCT,
  'products/update': PRODUCT,
  'products/delete': { id: true },
};

/** A topic the portal does not handle keeps only its id: it is never processed, and shown only as having come. */
const UNHANDLED: Shape = { id: true };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function pick(value: unknown, shape: Shape): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (shape === true) return Array.isArray(value) ? [] : {};
  if (Array.isArray(shape)) {
    const item = (shape as readonly [Shape])[0];
    return Array.isArray(value) ? value.map((element) => pick(element, item)) : {};
  }
  if (!isPlainObject(value)) return [];
  const kept: Record<string, unknown> = {};
  for (const [key, childShape] of Object.entries(shape as Record<string, Shape>)) {
    if (key in value) kept[key] = pick(value[key], childShape);
  }
  return kept;
}

/** Read as the ledger reads it: the name made one clean line (control characters and all), then trimmed. */
const isRefAttribute = (attribute: unknown) =>
  !isPlainObject(attribute) || typeof attribute.name !== 'string' || toSingleLineText(attribute.name).trim().toLowerCase() === 'ref';

/** The `?ref=` of the page a visit landed on, all the ledger reads of it (modules/orders/shopify-order.ts). */
function reducedLandingSite(landingSite: unknown): unknown {
  if (typeof landingSite !== 'string') return pick(landingSite, true);
  let ref: string | null = null;
  try {
    ref = new URL(landingSite, 'https://butik.invalid').searchParams.get('ref');
  } catch {
    ref = null;
  }
  return ref === null ? null : `/?ref=${encodeURIComponent(ref)}`;
}

/**
 * The part of a parsed payload (parseShopifyJson) that is stored for `topic`. Reducing a reduced
 * payload changes nothing.
 */
export function reduceShopifyPayload(topic: string, payload: unknown): unknown {
  const shape = SHAPES[topic] ?? UNHANDLED;
  const reduced = pick(payload, shape);
  if (shape === ORDER && isPlainObject(payload) && isPlainObject(reduced)) {
    if (Array.isArray(reduced.note_attributes)) reduced.note_attributes = reduced.note_attributes.filter(isRefAttribute);
    if ('landing_site' in payload) reduced.landing_site = reducedLandingSite(payload.landing_site);
  }
  return reduced;
}
