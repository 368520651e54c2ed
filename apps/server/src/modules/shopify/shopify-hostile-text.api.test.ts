/**
 * A signed webhook is never refused forever (issue 15, point 7). Text PostgreSQL cannot store (NUL)
 * and control characters anywhere in an order, refund or product from the shop: the delivery is
 * stored and answered 200, then processed with clean one-line names and titles, or recorded as
 * failed with an error that can itself be stored. A redelivery of the same webhook is 200 as well.
 */
import crypto from 'node:crypto';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { sql, type SQL } from 'drizzle-orm';
import { reduceShopifyPayload } from './reduce-payload.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TShopifyWebhookReceipt } from '@saljportalen/contract';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sendShopifyWebhook, shopifyFixture, swedishOrder, swedishRefund } from '../../../test/shopify-webhooks.js';

let server: TestServer;
let elsa: { membershipId: number; linkCode: string };

const query = <T>(statement: SQL): Promise<T[]> => sqlRows<T>(server.app.db, statement);

/** Control characters before and after a text, NUL among them; a name or a title keeps none of them. */
const HOSTILE_PREFIX = '\u0000\u0007\u001b';
const HOSTILE_SUFFIX = '\r\n\u0000\u2028\u0085\t\u007f';
const holdsControl = (text: string) =>
  [...text].some((char) => char <= '\u001f' || (char >= '\u007f' && char <= '\u009f') || char === '\u2028' || char === '\u2029');

/** A date, an amount or an id: text whose twisting makes the payload wrong rather than dirty. */
const structured = (text: string) => /^-?\d+(\.\d+)?$/.test(text) || /^\d{4}-\d{2}-\d{2}/.test(text);

/** Every string of a payload, at any depth, passed through `twist`. */
function twistStrings(value: unknown, twist: (text: string) => string): unknown {
  if (typeof value === 'string') return twist(value);
  if (Array.isArray(value)) return value.map((item) => twistStrings(item, twist));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, twistStrings(item, twist)]));
  return value;
}

const dirty = (payload: unknown) =>
  twistStrings(payload, (text) => (structured(text) ? text : `${HOSTILE_PREFIX}${text}${HOSTILE_SUFFIX}`));

interface StoredEvent {
  payload: string;
  processed: boolean;
  attempts: number;
  last_error: string | null;
  outcome: string | null;
}

async function storedEvent(webhookId: string): Promise<StoredEvent | undefined> {
  const [event] = await query<StoredEvent>(
    sql`select payload, processed_at is not null as processed, attempts, last_error, outcome from webhook_events where webhook_id = ${webhookId}`,
  );
  return event;
}

/** Delivers twice with one webhook id, as Shopify retries: both answers 200, the event stored once. */
async function deliverTwice(topic: string, payload: unknown): Promise<{ event: StoredEvent; receipts: TShopifyWebhookReceipt[] }> {
  const webhookId = crypto.randomUUID();
  const receipts: TShopifyWebhookReceipt[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await sendShopifyWebhook(server.url, topic, payload, { webhookId });
    expect(response.status, `${topic} delivery ${attempt + 1}: ${await response.clone().text()}`).toBe(200);
    receipts.push((await response.json()) as TShopifyWebhookReceipt);
  }
  const event = await storedEvent(webhookId);
  expect(event).toBeDefined();
  expect(receipts[1]!.event_id).toBe(receipts[0]!.event_id);
  return { event: event!, receipts };
}

function shopProduct(id: number) {
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Product/${id}`,
    title: 'Bambusugrör 8-pack',
    body_html: '<p>Ekologisk och <strong>plastfri</strong>.</p><p>Tillverkad i Sverige &amp; Danmark.</p>',
    vendor: 'Säljportalen',
    product_type: 'Hushåll',
    handle: 'bambusugror-8-pack',
    status: 'active',
    created_at: '2026-02-01T09:00:00+01:00',
    updated_at: '2026-02-01T09:00:00+01:00',
    tags: 'plastfritt, kök',
    variants: [{ id: id + 1, product_id: id, title: 'Default Title', price: '79.00', sku: `SP-${id % 1000}`, inventory_policy: 'deny' }],
    options: [{ id: id + 2, product_id: id, name: 'Title', position: 1, values: ['Default Title'] }],
    images: [{ id: id + 3, product_id: id, position: 1, src: `https://cdn.shopify.com/s/files/${id}.jpg` }],
    image: { id: id + 3, product_id: id, position: 1, src: `https://cdn.shopify.com/s/files/${id}.jpg` },
  };
}

async function storedOrder(shopifyOrderId: number) {
  const [order] = await query<{
    id: number;
    order_name: string;
    state: string;
    currency: string;
    ref_code: string | null;
    membership_id: number | null;
  }>(sql`select id::int, order_name, state, currency, ref_code, membership_id from orders where shopify_order_id = ${shopifyOrderId}`);
  const lines = order
    ? await query<{ kind: string; title: string }>(sql`select kind::text, title from order_lines where order_id = ${order.id} order by id`)
    : [];
  return order && { ...order, lines };
}

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  const [row] = await query<{ membership_id: number; link_code: string }>(sql`
    select m.id as membership_id, m.link_code from memberships m
    join users u on u.id = m.user_id join groups g on g.id = m.group_id
    where u.email = 'elsa@demo.se' and g.code = 'BJK6B2'`);
  elsa = { membershipId: row!.membership_id, linkCode: row!.link_code };
});
afterAll(() => server.close());

describe('text from the shop that PostgreSQL cannot store', () => {
  it('stores and records an order with NUL in a line title (issue 15), the title cleaned; a retry is 200 too', async () => {
    const order = swedishOrder({
      id: 7_910_000_000_001,
      refCode: elsa.linkCode,
      lineItems: [{ id: 7_910_000_000_011, productId: null, title: 'Bivax\u0000dukar 3-pack', price: '149.00', quantity: 1 }],
    });
    const { event, receipts } = await deliverTwice('orders/create', order);
    expect(event).toMatchObject({ processed: true, attempts: 1, last_error: null });
    expect(receipts[0]!.outcome).toContain('registrerad');
    expect(receipts[1]!.outcome).toMatch(/^Redan mottagen/);
    // The payload is kept as the ledger reads it (no buyer, decision 035): the NUL is JSON's
    // six-character escape, which text can store.
    expect(event.payload).toContain('Bivax\\u0000dukar');
    expect(JSON.parse(event.payload)).toEqual(reduceShopifyPayload('orders/create', order));
    expect((await storedOrder(7_910_000_000_001))!.lines).toEqual([{ kind: 'sale', title: 'Bivax dukar 3-pack' }]);
  });

  it('processes an order with control characters in every text field as the same order with clean text', async () => {
    const order = swedishOrder({
      id: 7_910_000_000_002,
      name: '#7902',
      refCode: elsa.linkCode,
      lineItems: [
        { id: 7_910_000_000_021, productId: null, sku: 'SP-001', title: 'Bivaxdukar 3-pack', price: '149.00', quantity: 2 },
        { id: 7_910_000_000_022, productId: null, sku: null, title: 'Ekologiskt kaffe 500 g', price: '119.00', quantity: 1 },
      ],
    });
    const { event } = await deliverTwice('orders/create', dirty(order));
    expect(event).toMatchObject({ processed: true, last_error: null });
    expect(holdsControl(event.outcome!)).toBe(false);
    expect(await storedOrder(7_910_000_000_002)).toMatchObject({
      order_name: '#7902',
      state: 'paid',
      currency: 'SEK',
      // The personal link code in the cart attribute still finds its seller.
      ref_code: elsa.linkCode,
      membership_id: elsa.membershipId,
      lines: [
        { kind: 'sale', title: 'Bivaxdukar 3-pack' },
        { kind: 'sale', title: 'Ekologiskt kaffe 500 g' },
      ],
    });
  });

  it('processes a refund with control characters in every text field', async () => {
    await deliverTwice(
      'orders/create',
      swedishOrder({
        id: 7_910_000_000_003,
        refCode: elsa.linkCode,
        lineItems: [{ id: 7_910_000_000_031, productId: null, title: 'Tvål', price: '52.00', quantity: 2 }],
      }),
    );
    const refund = swedishRefund({
      id: 7_910_000_000_301,
      orderId: 7_910_000_000_003,
      lines: [{ id: 7_910_000_003_011, lineItemId: 7_910_000_000_031, quantity: 1 }],
    });
    const { event } = await deliverTwice('refunds/create', dirty(refund));
    expect(event).toMatchObject({ processed: true, last_error: null });
    expect((await storedOrder(7_910_000_000_003))!.lines.map((line) => line.kind)).toEqual(['sale', 'refund']);
  });

  it('processes a product with control characters in every text field: one-line title, SKU and image address, storable description', async () => {
    const { event } = await deliverTwice('products/create', dirty(shopProduct(8_910_000_000_001)));
    expect(event).toMatchObject({ processed: true, last_error: null });
    const [product] = await query<{ title: string; sku: string; description: string; image_url: string }>(
      sql`select title, sku, description, image_url from products where shopify_product_id = 8910000000001`,
    );
    expect(product).toMatchObject({
      title: 'Bambusugrör 8-pack',
      sku: 'SP-1',
      image_url: 'https://cdn.shopify.com/s/files/8910000000001.jpg',
    });
    expect(product!.description).not.toContain('\u0000');
    expect(product!.description).toContain('Ekologisk och plastfri.');
  });

  it('records a failure whose message holds the NUL it was about, and answers 200 to every retry', async () => {
    const order = swedishOrder({ id: 7_910_000_000_004, refCode: elsa.linkCode });
    // "Ogiltigt belopp: 1<NUL>49.00": the error quotes the value, NUL and all.
    (order.line_items as Record<string, unknown>[])[0]!.price = '1\u000049.00';
    const { event } = await deliverTwice('orders/create', order);
    expect(event).toMatchObject({ processed: false, attempts: 2, last_error: expect.stringContaining('Ogiltigt belopp') });
    expect(event.last_error).not.toContain('\u0000');
    expect(await storedOrder(7_910_000_000_004)).toBeUndefined();
  });

  it('stores every topic with NUL, control characters and lone surrogates in every string, dates and amounts too', async () => {
    const twistAll = (payload: unknown) => twistStrings(payload, (text) => `\u0000${text.slice(0, 3)}\ud800\u0000${text.slice(3)}\u001b`);
    const deliveries: [string, unknown][] = [
      ['orders/create', twistAll(swedishOrder({ id: 7_910_000_000_005, refCode: elsa.linkCode }))],
      ['orders/updated', twistAll(JSON.parse(shopifyFixture('orders-create.json')))],
      ['refunds/create', twistAll(JSON.parse(shopifyFixture('refunds-create.json')))],
      ['products/update', twistAll(shopProduct(8_910_000_000_002))],
      ['products/delete', twistAll({ id: '8910000000002' })],
    ];
    for (const [topic, payload] of deliveries) {
      const { event } = await deliverTwice(topic, payload);
      // Processed, or kept for replay with the reason: never lost, never refused.
      if (!event.processed) expect(event.last_error, topic).toEqual(expect.any(String));
      expect(event.last_error ?? '', topic).not.toContain('\u0000');
    }
  });
});
