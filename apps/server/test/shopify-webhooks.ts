/**
 * Shopify-shaped webhook deliveries for tests, built from Shopify's own sample payloads in
 * fixtures/shopify and signed the way Shopify signs them.
 *
 *   const order = swedishOrder({ id: 7_100_000_000_001, refCode: 'DEMO0003' });
 *   const response = await sendShopifyWebhook(server.url, 'orders/create', order);
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { signShopifyWebhook } from '../src/modules/shopify/webhook-signature.js';

export const TEST_WEBHOOK_SECRET = 'test-webhook-secret';
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'shopify');

/** A fixture's exact bytes (signatures are computed over bytes, not over parsed JSON). */
export const shopifyFixture = (name: string): string => fs.readFileSync(path.join(fixtures, name), 'utf8');

export interface DeliveryOptions {
  webhookId?: string;
  secret?: string;
  /** Sent instead of the computed signature. */
  hmac?: string;
  headers?: Record<string, string>;
}

/**
 * A payload as Shopify writes it: a BigInt becomes a bare integer literal, so tests can send ids
 * past 2^53 (820982911946154508) that a JS number cannot hold.
 */
export function shopifyJson(payload: unknown): string {
  const marker = '\u0000bigint:';
  const text = JSON.stringify(payload, (_key, value: unknown) => (typeof value === 'bigint' ? `${marker}${value}` : value));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

/** Posts a delivery as Shopify does: raw JSON body, HMAC-SHA256 of it in base64, topic and webhook id headers. */
export async function sendShopifyWebhook(
  baseUrl: string,
  topic: string,
  payload: unknown,
  options: DeliveryOptions = {},
): Promise<Response> {
  const body = typeof payload === 'string' ? payload : shopifyJson(payload);
  return fetch(`${baseUrl}/api/webhooks/shopify`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-hmac-sha256': options.hmac ?? signShopifyWebhook(body, options.secret ?? TEST_WEBHOOK_SECRET),
      'x-shopify-shop-domain': 'saljportalen-test.myshopify.com',
      'x-shopify-api-version': '2025-01',
      'x-shopify-webhook-id': options.webhookId ?? crypto.randomUUID(),
      'x-shopify-triggered-at': new Date().toISOString(),
      ...options.headers,
    },
    body,
  });
}

/**
 * The same delivery over node:http, for tests that choose the connection (`agent: false` for one of
 * its own, or a keep-alive agent) and watch what becomes of the request. The body is sent; attach
 * the 'response' and 'error' handlers to the request returned.
 */
export function sendSignedOverHttp(options: { port: number; agent: http.Agent | false; topic: string; payload: unknown }): {
  request: http.ClientRequest;
  webhookId: string;
} {
  const body = typeof options.payload === 'string' ? options.payload : shopifyJson(options.payload);
  const webhookId = crypto.randomUUID();
  const request = http.request({
    host: '127.0.0.1',
    port: options.port,
    method: 'POST',
    path: '/api/webhooks/shopify',
    agent: options.agent,
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'x-shopify-topic': options.topic,
      'x-shopify-hmac-sha256': signShopifyWebhook(body, TEST_WEBHOOK_SECRET),
      'x-shopify-webhook-id': webhookId,
    },
  });
  request.end(body);
  return { request, webhookId };
}

type Json = Record<string, unknown>;

export interface SwedishLineItem {
  id: number | bigint;
  productId: number | null;
  sku?: string | null;
  title: string;
  /** Unit price incl. VAT, e.g. "149.00". */
  price: string;
  quantity: number;
  /** Discount allocated to the whole line, e.g. "10.00". */
  discount?: string;
  giftCard?: boolean;
}

/**
 * Shopify's sample order (orders-create.json) turned into a paid order of a Swedish shop: SEK,
 * prices incl. 25 % VAT (taxes_included), the given lines with their tax lines and discount
 * allocations, a discount code, and the personal link code in the cart attribute `ref`.
 * Every other field stays as in Shopify's sample.
 */
export function swedishOrder(options: {
  /** A BigInt for an id past 2^53; send it with sendShopifyWebhook (or shopifyJson). */
  id: number | bigint;
  name?: string;
  refCode?: string | null;
  landingSite?: string | null;
  discountCodes?: string[];
  lineItems?: SwedishLineItem[];
  createdAt?: string;
  updatedAt?: string;
  financialStatus?: string;
  cancelledAt?: string | null;
  refunds?: Json[];
}): Json {
  const sample = JSON.parse(shopifyFixture('orders-create.json')) as Json;
  const sampleLine = (sample.line_items as Json[])[0]!;
  const lineItems = options.lineItems ?? defaultLineItems();
  const createdAt = options.createdAt ?? '2026-03-10T14:05:00+01:00';
  const money = (amount: string) => ({ shop_money: { amount, currency_code: 'SEK' }, presentment_money: { amount, currency_code: 'SEK' } });
  const ore = (amount: string) => Math.round(Number(amount) * 100);
  const sek = (value: number) => (value / 100).toFixed(2);
  const lines = lineItems.map((line) => {
    const paidOre = ore(line.price) * line.quantity - ore(line.discount ?? '0');
    // VAT included in the price: 25/125 of what is paid.
    const vat = sek(Math.round((paidOre * 25) / 125));
    return {
      ...sampleLine,
      id: line.id,
      admin_graphql_api_id: `gid://shopify/LineItem/${line.id}`,
      product_id: line.productId,
      sku: line.sku ?? null,
      title: line.title,
      name: line.title,
      price: line.price,
      price_set: money(line.price),
      quantity: line.quantity,
      current_quantity: line.quantity,
      gift_card: line.giftCard ?? false,
      total_discount: '0.00',
      total_discount_set: money('0.00'),
      discount_allocations: line.discount
        ? [{ amount: line.discount, amount_set: money(line.discount), discount_application_index: 0 }]
        : [],
      tax_lines: [{ channel_liable: false, price: vat, price_set: money(vat), rate: 0.25, title: 'Moms' }],
    };
  });
  const subtotalOre = lineItems.reduce((sum, line) => sum + ore(line.price) * line.quantity - ore(line.discount ?? '0'), 0);
  const discountOre = lineItems.reduce((sum, line) => sum + ore(line.discount ?? '0'), 0);
  const discountCodes = options.discountCodes ?? ['VÅR10'];
  return {
    ...sample,
    id: options.id,
    admin_graphql_api_id: `gid://shopify/Order/${options.id}`,
    name: options.name ?? `#${String(options.id).slice(-4)}`,
    test: false,
    currency: 'SEK',
    presentment_currency: 'SEK',
    taxes_included: true,
    financial_status: options.financialStatus ?? 'paid',
    cancelled_at: options.cancelledAt ?? null,
    cancel_reason: options.cancelledAt ? 'customer' : null,
    created_at: createdAt,
    processed_at: createdAt,
    updated_at: options.updatedAt ?? createdAt,
    note_attributes: options.refCode ? [{ name: 'ref', value: options.refCode }] : [],
    landing_site: options.landingSite ?? '/products/bivaxdukar',
    landing_site_ref: null,
    discount_codes: discountCodes.map((code) => ({ code, amount: sek(discountOre), type: 'fixed_amount' })),
    discount_applications: discountCodes.map((code) => ({
      target_type: 'line_item',
      type: 'discount_code',
      value: sek(discountOre),
      value_type: 'fixed_amount',
      allocation_method: 'across',
      target_selection: 'all',
      code,
    })),
    total_discounts: sek(discountOre),
    subtotal_price: sek(subtotalOre),
    total_price: sek(subtotalOre),
    line_items: lines,
    refunds: options.refunds ?? [],
  };
}

function defaultLineItems(): SwedishLineItem[] {
  return [
    { id: 7_200_000_000_001, productId: null, sku: 'SP-001', title: 'Bivaxdukar 3-pack', price: '149.00', quantity: 2, discount: '10.00' },
    { id: 7_200_000_000_002, productId: null, sku: 'SP-002', title: 'Ekologiskt kaffe 500 g', price: '119.00', quantity: 1 },
    { id: 7_200_000_000_003, productId: null, sku: null, title: 'Presentkort', price: '200.00', quantity: 1, giftCard: true },
  ];
}

/**
 * Shopify's sample refund (refunds-create.json) for the given order and lines: one refund line
 * per entry, refunding `quantity` units of the order's line `lineItemId`.
 */
export function swedishRefund(options: {
  id: number;
  orderId: number;
  processedAt?: string;
  lines: { id: number; lineItemId: number; quantity: number }[];
}): Json {
  const sample = JSON.parse(shopifyFixture('refunds-create.json')) as Json;
  const sampleLine = (sample.refund_line_items as Json[])[0]!;
  const processedAt = options.processedAt ?? '2026-03-12T09:30:00+01:00';
  return {
    ...sample,
    id: options.id,
    admin_graphql_api_id: `gid://shopify/Refund/${options.id}`,
    order_id: options.orderId,
    created_at: processedAt,
    processed_at: processedAt,
    note: 'Trasig vid leverans',
    transactions: [],
    refund_line_items: options.lines.map((line) => ({
      ...sampleLine,
      id: line.id,
      line_item_id: line.lineItemId,
      line_item: { ...(sampleLine.line_item as Json), id: line.lineItemId },
      quantity: line.quantity,
    })),
  };
}
