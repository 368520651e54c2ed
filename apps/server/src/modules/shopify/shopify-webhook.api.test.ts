import { sql, type SQL } from 'drizzle-orm';
import { reduceShopifyPayload } from './reduce-payload.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sendShopifyWebhook, shopifyFixture, swedishOrder, swedishRefund } from '../../../test/shopify-webhooks.js';
import { sqlRows } from '../../../test/admin-fixtures.js';

let server: TestServer;
let elsa: { membershipId: number; groupId: number; linkCode: string };
const DEFAULT_BPS = 2500;

async function query<T = Record<string, unknown>>(statement: SQL): Promise<T[]> {
  return sqlRows<T>(server.app.db, statement);
}

/** The order as the tables hold it, read with plain SQL; amounts as numbers. */
async function storedOrder(shopifyOrderId: number) {
  const [order] = await query<{
    id: number;
    membership_id: number | null;
    group_id: number | null;
    state: string;
    subtotal_ore: number;
    commission_ore: number;
    order_name: string;
  }>(
    sql`select id::int, membership_id, group_id, state, subtotal_ore::int, commission_ore::int, order_name from orders where shopify_order_id = ${shopifyOrderId}`,
  );
  if (!order) return undefined;
  const lines = await query<{
    kind: string;
    shopify_line_id: string;
    quantity: number;
    amount_ore: number;
    commission_ore: number;
    membership_id: number | null;
    group_id: number | null;
    booked_at: string;
    payout_id: number | null;
  }>(
    sql`select kind::text, shopify_line_id::text, quantity, amount_ore::int, commission_ore::int, membership_id, group_id, booked_at::text, payout_id from order_lines where order_id = ${order.id} order by id`,
  );
  return { ...order, lines };
}

async function count(table: 'orders' | 'webhook_events' | 'order_lines'): Promise<number> {
  const [row] = await query<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`);
  return row!.n;
}

/** The rule every figure of the portal rests on: an order's amounts are the sums of its lines. */
async function ordersWhoseTotalsDifferFromTheirLines(): Promise<number> {
  const [row] = await query<{ n: number }>(sql`
    select count(*)::int as n from orders o
    where o.subtotal_ore <> coalesce((select sum(amount_ore) from order_lines l where l.order_id = o.id), 0)
       or o.commission_ore <> coalesce((select sum(commission_ore) from order_lines l where l.order_id = o.id), 0)`);
  return row!.n;
}

const oreOf = (amount: string) => Math.round(Number(amount) * 100);

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  const [row] = await query<{ membership_id: number; group_id: number; link_code: string }>(sql`
    select m.id as membership_id, m.group_id, m.link_code from memberships m
    join users u on u.id = m.user_id join groups g on g.id = m.group_id
    where u.email = 'elsa@demo.se' and g.code = 'BJK6B2'`);
  elsa = { membershipId: row!.membership_id, groupId: row!.group_id, linkCode: row!.link_code };
  // One product known to the shop by id with its own rate; the others are matched by SKU or not at all.
  await query(sql`update products set shopify_product_id = 9100000000001, commission_bps = 3000 where sku = 'SP-001'`);
});
afterAll(() => server.close());

describe('orders/create', () => {
  it('records a full order under the seller of the code in its cart attribute, with commission per line', async () => {
    const order = swedishOrder({
      id: 7_100_000_000_001,
      refCode: elsa.linkCode.toLowerCase(),
      lineItems: [
        {
          id: 7_200_000_000_011,
          productId: 9_100_000_000_001,
          sku: 'ANNAN-SKU',
          title: 'Bivaxdukar 3-pack',
          price: '149.00',
          quantity: 2,
          discount: '10.00',
        },
        {
          id: 7_200_000_000_012,
          productId: 9_999_999_999,
          sku: 'SP-002',
          title: 'Ekologiskt kaffe 500 g',
          price: '119.00',
          quantity: 1,
          discount: '5.50',
        },
        { id: 7_200_000_000_013, productId: null, sku: null, title: 'Okänd vara', price: '59.90', quantity: 3 },
        { id: 7_200_000_000_014, productId: null, sku: null, title: 'Presentkort', price: '200.00', quantity: 1, giftCard: true },
      ],
    });
    const before = await query<{ sales: number; commission: number }>(
      sql`select coalesce(sum(subtotal_ore), 0)::int as sales, coalesce(sum(commission_ore), 0)::int as commission from orders where membership_id = ${elsa.membershipId}`,
    );

    const response = await sendShopifyWebhook(server.url, 'orders/create', order);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, outcome: expect.stringContaining('registrerad') });

    const rates = await query<{ sku: string; bps: number }>(
      sql`select sku, coalesce(commission_bps, ${DEFAULT_BPS}) as bps from products where sku in ('SP-001', 'SP-002')`,
    );
    const rate = (sku: string) => rates.find((r) => r.sku === sku)!.bps;
    // By hand from the payload: price × quantity − discount (VAT is in the price); gift cards earn nothing.
    const expectedLines = [
      { amount: oreOf('149.00') * 2 - oreOf('10.00'), bps: rate('SP-001') },
      { amount: oreOf('119.00') - oreOf('5.50'), bps: rate('SP-002') },
      { amount: oreOf('59.90') * 3, bps: DEFAULT_BPS },
    ].map((line) => ({ ...line, commission: Math.round((line.amount * line.bps) / 10_000) }));
    expect(expectedLines.map((line) => line.bps)).toEqual([3000, DEFAULT_BPS, DEFAULT_BPS]);

    const stored = await storedOrder(7_100_000_000_001);
    expect(stored).toMatchObject({ membership_id: elsa.membershipId, group_id: elsa.groupId, state: 'paid', order_name: order.name });
    expect(stored!.lines.map((line) => [line.kind, line.amount_ore, line.commission_ore])).toEqual(
      expectedLines.map((line) => ['sale', line.amount, line.commission]),
    );
    expect(stored!.lines.every((line) => line.membership_id === elsa.membershipId && line.group_id === elsa.groupId)).toBe(true);
    expect(stored!.subtotal_ore).toBe(expectedLines.reduce((sum, line) => sum + line.amount, 0));
    expect(stored!.commission_ore).toBe(expectedLines.reduce((sum, line) => sum + line.commission, 0));

    const after = await query<{ sales: number; commission: number }>(
      sql`select coalesce(sum(subtotal_ore), 0)::int as sales, coalesce(sum(commission_ore), 0)::int as commission from orders where membership_id = ${elsa.membershipId}`,
    );
    expect(after[0]!.sales - before[0]!.sales).toBe(stored!.subtotal_ore);
    expect(after[0]!.commission - before[0]!.commission).toBe(stored!.commission_ore);
  });

  it('adds VAT from the tax lines when the shop prices exclude it', async () => {
    const order = swedishOrder({
      id: 7_100_000_000_002,
      refCode: elsa.linkCode,
      lineItems: [{ id: 7_200_000_000_021, productId: null, title: 'Tvål', price: '52.00', quantity: 2 }],
    });
    order.taxes_included = false;
    const line = (order.line_items as { tax_lines: { price: string }[] }[])[0]!;
    line.tax_lines = [{ ...line.tax_lines[0]!, price: '26.00' }];
    expect((await sendShopifyWebhook(server.url, 'orders/create', order)).status).toBe(200);
    expect((await storedOrder(7_100_000_000_002))!.lines[0]!.amount_ore).toBe(oreOf('52.00') * 2 + oreOf('26.00'));
  });

  it('counts the same delivery three times once, and the same order under another topic once', async () => {
    const order = swedishOrder({ id: 7_100_000_000_003, refCode: elsa.linkCode });
    const events = await count('webhook_events');
    const lines = await count('order_lines');
    for (let i = 0; i < 3; i++) {
      const response = await sendShopifyWebhook(server.url, 'orders/create', order, { webhookId: 'leverans-7100000000003' });
      expect(response.status).toBe(200);
    }
    expect(await count('webhook_events')).toBe(events + 1);
    expect((await sendShopifyWebhook(server.url, 'orders/paid', order)).status).toBe(200);
    expect(await count('webhook_events')).toBe(events + 2);
    const stored = await storedOrder(7_100_000_000_003);
    expect(stored!.lines).toHaveLength(2);
    expect(await count('order_lines')).toBe(lines + 2);
    expect((await query(sql`select 1 from orders where shopify_order_id = 7100000000003`)).length).toBe(1);
  });

  it('attributes from the landing site ?ref= and from a discount code equal to the link code', async () => {
    const [noah] = await query<{ id: number; link_code: string }>(
      sql`select m.id, m.link_code from memberships m join users u on u.id = m.user_id where u.email = 'noah@demo.se'`,
    );
    const fromLanding = swedishOrder({
      id: 7_100_000_000_004,
      landingSite: `/collections/all?utm_source=sms&ref=${noah!.link_code}`,
      discountCodes: [],
    });
    const fromDiscount = swedishOrder({ id: 7_100_000_000_005, landingSite: null, discountCodes: [noah!.link_code] });
    const preferCart = swedishOrder({ id: 7_100_000_000_006, refCode: elsa.linkCode, discountCodes: [noah!.link_code] });
    for (const order of [fromLanding, fromDiscount, preferCart])
      expect((await sendShopifyWebhook(server.url, 'orders/create', order)).status).toBe(200);
    expect((await storedOrder(7_100_000_000_004))!.membership_id).toBe(noah!.id);
    expect((await storedOrder(7_100_000_000_005))!.membership_id).toBe(noah!.id);
    expect((await storedOrder(7_100_000_000_006))!.membership_id).toBe(elsa.membershipId);
  });

  it('still records the orders of a seller whose group is archived, unattributed, for the superadmin (decision 027)', async () => {
    const [archived] = await query<{ id: number; link_code: string }>(
      sql`select m.id, m.link_code from memberships m join groups g on g.id = m.group_id where g.archived order by m.id limit 1`,
    );
    const response = await sendShopifyWebhook(
      server.url,
      'orders/create',
      swedishOrder({ id: 7_100_000_000_007, refCode: archived!.link_code }),
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { outcome: string }).outcome).toContain(
      `länkkod ${archived!.link_code} hör till en arkiverad grupp`,
    );
    const stored = await storedOrder(7_100_000_000_007);
    expect(stored).toMatchObject({ membership_id: null, group_id: null });
    const [kept] = await query<{ ref_code: string; lines: number }>(
      sql`select o.ref_code, (select count(*)::int from order_lines l where l.order_id = o.id) as lines from orders o where o.shopify_order_id = 7100000000007`,
    );
    expect(kept).toEqual({ ref_code: archived!.link_code, lines: expect.any(Number) });
    expect(kept!.lines).toBeGreaterThan(0);
  });

  it("stores Shopify's own test notification (the sample's exact bytes) but counts no test order", async () => {
    const orders = await count('orders');
    const response = await sendShopifyWebhook(server.url, 'orders/create', shopifyFixture('orders-create.json'));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { outcome: string }).outcome).toContain('Testorder');
    expect(await count('orders')).toBe(orders);
    const [event] = await query<{ shopify_order_id: string; processed: boolean }>(
      sql`select shopify_order_id::text, processed_at is not null as processed from webhook_events order by id desc limit 1`,
    );
    // 18 digits, exactly: JSON.parse would have rounded the last ones.
    expect(event).toEqual({ shopify_order_id: '820982911946154508', processed: true });
  });
});

describe('signature and body', () => {
  it('refuses a bad signature with 401 and stores nothing', async () => {
    const events = await count('webhook_events');
    const order = swedishOrder({ id: 7_100_000_000_101, refCode: elsa.linkCode });
    const forged = await sendShopifyWebhook(server.url, 'orders/create', order, { secret: 'fel-hemlighet' });
    const missing = await sendShopifyWebhook(server.url, 'orders/create', order, { hmac: '' });
    const garbage = await sendShopifyWebhook(server.url, 'orders/create', order, { hmac: 'inte-base64!' });
    for (const response of [forged, missing, garbage]) {
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string; message: string } }).error).toMatchObject({
        code: 'INVALID_SIGNATURE',
        message: expect.stringContaining('signatur'),
      });
    }
    expect(await count('webhook_events')).toBe(events);
    expect(await storedOrder(7_100_000_000_101)).toBeUndefined();
  });

  it('answers malformed JSON with a valid signature with 400 and stores nothing', async () => {
    const events = await count('webhook_events');
    for (const body of ['{"id": 7100000000102, "line_items": [', '', 'null,']) {
      const response = await sendShopifyWebhook(server.url, 'orders/create', body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/JSON/);
    }
    expect(await count('webhook_events')).toBe(events);
  });

  it('answers 200 to a topic it does not handle, and keeps the event', async () => {
    const response = await sendShopifyWebhook(
      server.url,
      'customers/create',
      { id: 1, email: 'kund@example.se' },
      { webhookId: 'okant-amne-1' },
    );
    expect(response.status).toBe(200);
    const [event] = await query<{ topic: string; outcome: string }>(
      sql`select topic, outcome from webhook_events where webhook_id = 'okant-amne-1'`,
    );
    expect(event).toEqual({ topic: 'customers/create', outcome: expect.stringContaining('ignorerat') });
  });

  it('keeps an order with a wrong shape as a failed event for replay, and still answers 200', async () => {
    const response = await sendShopifyWebhook(
      server.url,
      'orders/create',
      { id: 7_100_000_000_103, line_items: 'inga' },
      { webhookId: 'trasig-order-1' },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { outcome: string }).outcome).toBe(
      'Sparad men kunde inte behandlas: spelas upp igen med replay-webhooks',
    );
    const [event] = await query<{ processed: boolean; attempts: number; last_error: string }>(
      sql`select processed_at is not null as processed, attempts, last_error from webhook_events where webhook_id = 'trasig-order-1'`,
    );
    expect(event).toMatchObject({ processed: false, attempts: 1, last_error: expect.stringContaining('orders/create') });
  });

  it('refuses with 503 and a Swedish message when no secret is configured', async () => {
    const unconfigured = await startTestServer({ env: { SHOPIFY_WEBHOOK_SECRET: '' } });
    try {
      const response = await sendShopifyWebhook(unconfigured.url, 'orders/create', swedishOrder({ id: 7_100_000_000_104 }));
      expect(response.status).toBe(503);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain('SHOPIFY_WEBHOOK_SECRET');
    } finally {
      await unconfigured.close();
    }
  });
});

describe('orders/updated, orders/cancelled and refunds/create', () => {
  it('takes a newer update and ignores an older one delivered late', async () => {
    const id = 7_100_000_000_201;
    const created = swedishOrder({ id, refCode: elsa.linkCode, financialStatus: 'pending', updatedAt: '2026-03-10T14:05:00+01:00' });
    const paid = swedishOrder({ id, refCode: elsa.linkCode, financialStatus: 'paid', updatedAt: '2026-03-10T14:20:00+01:00' });
    await sendShopifyWebhook(server.url, 'orders/create', created);
    await sendShopifyWebhook(server.url, 'orders/updated', paid);
    expect((await storedOrder(id))!.state).toBe('paid');
    await sendShopifyWebhook(server.url, 'orders/updated', created);
    expect((await storedOrder(id))!.state).toBe('paid');
    // Shopify's order as stored is the payload of the newer delivery, kept once, in its event, as
    // far as the ledger reads it (decision 035).
    const [source] = await query<{ topic: string; payload: string }>(
      sql`select e.topic, e.payload from orders o join webhook_events e on e.id = o.source_event_id where o.shopify_order_id = ${id}`,
    );
    expect(source!.topic).toBe('orders/updated');
    expect(JSON.parse(source!.payload)).toEqual(reduceShopifyPayload('orders/updated', paid));
  });

  it('works when the update arrives before the create', async () => {
    const id = 7_100_000_000_202;
    await sendShopifyWebhook(
      server.url,
      'orders/updated',
      swedishOrder({ id, refCode: elsa.linkCode, financialStatus: 'paid', updatedAt: '2026-03-10T15:00:00+01:00' }),
    );
    await sendShopifyWebhook(server.url, 'orders/create', swedishOrder({ id, refCode: elsa.linkCode, financialStatus: 'pending' }));
    const stored = await storedOrder(id);
    expect(stored!.state).toBe('paid');
    expect(stored!.lines.filter((line) => line.kind === 'sale')).toHaveLength(2);
    expect((await query(sql`select 1 from orders where shopify_order_id = ${id}`)).length).toBe(1);
  });

  it('reverses a cancelled order with negative lines, and the order stops counting', async () => {
    const id = 7_100_000_000_203;
    await sendShopifyWebhook(server.url, 'orders/create', swedishOrder({ id, refCode: elsa.linkCode }));
    const cancelled = swedishOrder({
      id,
      refCode: elsa.linkCode,
      financialStatus: 'voided',
      cancelledAt: '2026-03-11T08:00:00+01:00',
      updatedAt: '2026-03-11T08:00:00+01:00',
    });
    await sendShopifyWebhook(server.url, 'orders/cancelled', cancelled);
    await sendShopifyWebhook(server.url, 'orders/cancelled', cancelled);
    const stored = await storedOrder(id);
    expect(stored!.state).toBe('cancelled');
    expect(stored!.subtotal_ore).toBe(0);
    expect(stored!.commission_ore).toBe(0);
    const sales = stored!.lines.filter((line) => line.kind === 'sale');
    const cancellations = stored!.lines.filter((line) => line.kind === 'cancellation');
    expect(cancellations.map((line) => [line.shopify_line_id, -line.quantity, -line.amount_ore, -line.commission_ore])).toEqual(
      sales.map((line) => [line.shopify_line_id, line.quantity, line.amount_ore, line.commission_ore]),
    );
    const [counted] = await query<{ n: number }>(
      sql`select count(*)::int as n from orders where shopify_order_id = ${id} and state <> 'cancelled'`,
    );
    expect(counted!.n).toBe(0);
  });

  it('reverses a partial refund in proportion, and a refund before its order is applied when the order comes', async () => {
    const id = 7_100_000_000_204;
    const order = swedishOrder({
      id,
      refCode: elsa.linkCode,
      lineItems: [
        {
          id: 7_200_000_002_041,
          productId: 9_100_000_000_001,
          title: 'Bivaxdukar 3-pack',
          price: '149.00',
          quantity: 3,
          discount: '20.00',
        },
        { id: 7_200_000_002_042, productId: null, sku: 'SP-002', title: 'Kaffe', price: '119.00', quantity: 1 },
      ],
    });
    // Shopify does not promise order: the refund comes first.
    const refund = swedishRefund({
      id: 7_300_000_000_001,
      orderId: id,
      lines: [{ id: 7_400_000_000_001, lineItemId: 7_200_000_002_041, quantity: 1 }],
    });
    expect(((await (await sendShopifyWebhook(server.url, 'refunds/create', refund)).json()) as { outcome: string }).outcome).toContain(
      'väntar',
    );
    expect(await storedOrder(id)).toBeUndefined();
    await sendShopifyWebhook(server.url, 'orders/create', order);
    await sendShopifyWebhook(server.url, 'refunds/create', refund);

    const stored = await storedOrder(id);
    const sale = stored!.lines.find((line) => line.shopify_line_id === '7200000002041' && line.kind === 'sale')!;
    const refunds = stored!.lines.filter((line) => line.kind === 'refund');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      shopify_line_id: '7400000000001',
      quantity: -1,
      amount_ore: -Math.round(sale.amount_ore / 3),
      commission_ore: -Math.round(sale.commission_ore / 3),
      membership_id: elsa.membershipId,
    });
    expect(refunds[0]!.booked_at).toContain('2026-03-12');
    expect(stored!.subtotal_ore).toBe(stored!.lines.reduce((sum, line) => sum + line.amount_ore, 0));

    // Refunding the other two and then cancelling leaves exactly nothing, without rounding crumbs.
    await sendShopifyWebhook(
      server.url,
      'refunds/create',
      swedishRefund({ id: 7_300_000_000_002, orderId: id, lines: [{ id: 7_400_000_000_002, lineItemId: 7_200_000_002_041, quantity: 2 }] }),
    );
    await sendShopifyWebhook(server.url, 'orders/cancelled', {
      ...order,
      cancelled_at: '2026-03-13T10:00:00+01:00',
      updated_at: '2026-03-13T10:00:00+01:00',
    });
    const emptied = await storedOrder(id);
    expect([emptied!.subtotal_ore, emptied!.commission_ore]).toEqual([0, 0]);
    const beesWax = emptied!.lines.filter((line) => line.shopify_line_id === '7200000002041' || line.kind === 'refund');
    expect(beesWax.reduce((sum, line) => sum + line.amount_ore, 0)).toBe(0);
  });

  it('never changes a line a payout has settled: a later refund is a new negative line', async () => {
    const id = 7_100_000_000_205;
    await sendShopifyWebhook(server.url, 'orders/create', swedishOrder({ id, refCode: elsa.linkCode }));
    const [payout] = await query<{ id: number }>(sql`
      insert into payouts (group_id, period_from, period_to, orders_count, lines_count, sales_ore, commission_ore)
      values (${elsa.groupId}, '2026-03-01', '2026-03-31', 1, 2, 0, 0) returning id`);
    await query(
      sql`update order_lines set payout_id = ${payout!.id} where order_id = (select id from orders where shopify_order_id = ${id})`,
    );
    const settledBefore = (await storedOrder(id))!.lines;

    await sendShopifyWebhook(
      server.url,
      'refunds/create',
      swedishRefund({ id: 7_300_000_000_003, orderId: id, lines: [{ id: 7_400_000_000_003, lineItemId: 7_200_000_000_002, quantity: 1 }] }),
    );
    const after = (await storedOrder(id))!;
    expect(after.lines.slice(0, settledBefore.length)).toEqual(settledBefore);
    const refund = after.lines.find((line) => line.kind === 'refund')!;
    expect(refund).toMatchObject({
      payout_id: null,
      amount_ore: -settledBefore.find((line) => line.shopify_line_id === '7200000000002')!.amount_ore,
    });
  });

  it('stays right when many deliveries of one order arrive at the same moment', async () => {
    const id = 7_100_000_000_206;
    const order = swedishOrder({ id, refCode: elsa.linkCode });
    const cancelled = {
      ...order,
      financial_status: 'voided',
      cancelled_at: '2026-03-11T08:00:00+01:00',
      updated_at: '2026-03-11T08:00:00+01:00',
    };
    const refund = swedishRefund({
      id: 7_300_000_000_004,
      orderId: id,
      lines: [{ id: 7_400_000_000_004, lineItemId: 7_200_000_000_001, quantity: 1 }],
    });
    const responses = await Promise.all([
      ...Array.from({ length: 4 }, () => sendShopifyWebhook(server.url, 'orders/create', order, { webhookId: 'samtidig-7100000000206' })),
      ...Array.from({ length: 3 }, () => sendShopifyWebhook(server.url, 'orders/updated', order)),
      sendShopifyWebhook(server.url, 'refunds/create', refund),
      sendShopifyWebhook(server.url, 'orders/cancelled', cancelled),
      sendShopifyWebhook(server.url, 'refunds/create', refund),
    ]);
    expect(responses.map((response) => response.status)).toEqual(Array(responses.length).fill(200));
    // The four deliveries of one webhook: one is processed, the others are told it already was.
    const outcomes = await Promise.all(
      responses.slice(0, 4).map(async (response) => ((await response.json()) as { outcome: string }).outcome),
    );
    expect(outcomes.filter((outcome) => !outcome.startsWith('Redan mottagen'))).toHaveLength(1);
    expect(
      await query(
        sql`select attempts, last_error, processed_at is not null as processed from webhook_events where webhook_id = 'samtidig-7100000000206'`,
      ),
    ).toEqual([{ attempts: 1, last_error: null, processed: true }]);
    const stored = await storedOrder(id);
    expect((await query(sql`select 1 from orders where shopify_order_id = ${id}`)).length).toBe(1);
    expect(stored!.lines.filter((line) => line.kind === 'sale')).toHaveLength(2);
    expect(stored!.lines.filter((line) => line.kind === 'refund').length).toBeLessThanOrEqual(1);
    expect([stored!.state, stored!.subtotal_ore, stored!.commission_ore]).toEqual(['cancelled', 0, 0]);
  });

  it('never loses a refund that arrives at the same moment as its order', async () => {
    const ids = Array.from({ length: 15 }, (_, i) => 7_100_000_001_000 + i);
    await Promise.all(
      ids.flatMap((id, i) => [
        sendShopifyWebhook(server.url, 'orders/create', swedishOrder({ id, refCode: elsa.linkCode })),
        sendShopifyWebhook(
          server.url,
          'refunds/create',
          swedishRefund({
            id: 7_300_000_001_000 + i,
            orderId: id,
            lines: [{ id: 7_400_000_001_000 + i, lineItemId: 7_200_000_000_002, quantity: 1 }],
          }),
        ),
      ]),
    );
    const [row] = await query<{ orders: number; refunds: number }>(sql`
      select count(distinct o.id)::int as orders, count(l.id)::int as refunds from orders o
      left join order_lines l on l.order_id = o.id and l.kind = 'refund'
      where o.shopify_order_id between ${ids[0]} and ${ids.at(-1)}`);
    expect(row).toEqual({ orders: ids.length, refunds: ids.length });
  });

  it('keeps every order equal to the sum of its lines', async () => {
    expect(await ordersWhoseTotalsDifferFromTheirLines()).toBe(0);
  });
});
