/**
 * Issue 21, 'Webbhookar': the superadmin lists stored Shopify events by status, sees why one
 * failed, and runs it again ('Kör igen'). A replay goes through the receiver's own processing and
 * counts an order exactly once however often it is asked for; no answer shows a buyer.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMeSummaryResponse, TWebhookEventDetail, TWebhookEventsResponse, TWebhookReplayResponse } from '@saljportalen/contract';
import { figuresFromOrders, membershipOf, sqlRows } from '../../../test/admin-fixtures.js';
import { ledgerViolations } from '../../../test/ledger-invariants.js';
import { sendShopifyWebhook, swedishOrder } from '../../../test/shopify-webhooks.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let admin: string;
let noah: { id: number; groupId: number; linkCode: string };

const buyer = {
  first_name: 'Astrid',
  last_name: 'Lindgren',
  name: 'Astrid Lindgren',
  address1: 'Dalagatan 46',
  address2: null,
  city: 'Vimmerby',
  zip: '598 37',
  company: null,
  phone: '+46 70 123 45 67',
  country: 'Sweden',
  country_code: 'SE',
};
/** Everything of the buyer that must never reach the superadmin's screen. */
const BUYER_TEXTS = ['Astrid', 'Lindgren', 'astrid.lindgren@exempel.se', 'exempel.se', 'Dalagatan', 'Vimmerby', '598 37', '70 123 45 67'];

/** A paid order for Noah's link, bought by a Swedish buyer whose data sits where Shopify puts it. */
function orderWithBuyer(id: number) {
  const order = swedishOrder({ id, name: `#${id % 10000}`, refCode: noah.linkCode });
  return {
    ...order,
    email: 'astrid.lindgren@exempel.se',
    contact_email: 'astrid.lindgren@exempel.se',
    phone: '070-123 45 67',
    billing_address: buyer,
    shipping_address: buyer,
    customer: { ...(order.customer as object), first_name: 'Astrid', last_name: 'Lindgren', email: 'astrid.lindgren@exempel.se' },
  };
}

async function query<T>(statement: ReturnType<typeof sql>): Promise<T[]> {
  return sqlRows<T>(server.app.db, statement);
}

async function eventIdOf(webhookId: string): Promise<number> {
  const [row] = await query<{ id: number }>(sql`select id from webhook_events where webhook_id = ${webhookId}`);
  return Number(row!.id);
}

/**
 * Orders fail to save while this is on, with an error that quotes the buyer (as a real database
 * error quotes its query's values): the delivery is stored as a failed event.
 */
async function ordersRefused(refused: boolean) {
  if (refused) {
    await server.app.db.execute(sql`create or replace function test_refuse_orders() returns trigger language plpgsql as $$
      begin raise exception 'ordern kunde inte sparas (kund astrid.lindgren@exempel.se, 070-123 45 67)'; end $$`);
    await server.app.db.execute(
      sql`create trigger test_refuse_orders before insert on orders for each row execute function test_refuse_orders()`,
    );
  } else {
    await server.app.db.execute(sql`drop trigger if exists test_refuse_orders on orders`);
  }
}

/** What the seller, the group and the ledger hold: a replay that counts twice changes one of these. */
async function figuresNow() {
  const seller = await server.request('GET', '/api/me/summary', { token: await server.login('noah@demo.se') });
  const summary = (await seller.json()) as TMeSummaryResponse;
  const [counts] = await query<{ orders: number; lines: number; audits: number }>(
    sql`select (select count(*)::int from orders) as orders, (select count(*)::int from order_lines) as lines,
               (select count(*)::int from audit_entries where action = 'webhook.replay') as audits`,
  );
  return {
    seller: summary.personal.total_sales,
    sellerOrders: await figuresFromOrders(server.app.db, sql`membership_id = ${noah.id}`),
    group: await figuresFromOrders(server.app.db, sql`group_id = ${noah.groupId}`),
    ...counts!,
  };
}

async function list(status?: string, page?: number): Promise<TWebhookEventsResponse> {
  const search = new URLSearchParams({ ...(status ? { status } : {}), ...(page ? { page: String(page), page_size: '2' } : {}) });
  const response = await server.request('GET', `/api/admin/webhooks?${search}`, { token: admin });
  expect(response.status).toBe(200);
  return (await response.json()) as TWebhookEventsResponse;
}

async function replay(eventId: number): Promise<TWebhookReplayResponse> {
  const response = await server.request('POST', `/api/admin/webhooks/${eventId}/replay`, { token: admin });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as TWebhookReplayResponse;
}

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  admin = await server.login('admin@saljportalen.se');
  const membership = await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2');
  const [link] = await query<{ link_code: string }>(sql`select link_code from memberships where id = ${membership.id}`);
  noah = { id: membership.id, groupId: membership.groupId, linkCode: link!.link_code };

  // One of each: counted, ignored (a topic not handled, a test order), failed.
  expect((await sendShopifyWebhook(server.url, 'orders/create', orderWithBuyer(7_300_000_000_001), { webhookId: 'visad-1' })).status).toBe(
    200,
  );
  await sendShopifyWebhook(
    server.url,
    'customers/create',
    { id: 1, email: 'astrid.lindgren@exempel.se', first_name: 'Astrid' },
    { webhookId: 'okand-1' },
  );
  await sendShopifyWebhook(server.url, 'orders/create', { ...orderWithBuyer(7_300_000_000_002), test: true }, { webhookId: 'testorder-1' });
  await ordersRefused(true);
  try {
    await sendShopifyWebhook(server.url, 'orders/create', orderWithBuyer(7_300_000_000_003), { webhookId: 'misslyckad-1' });
  } finally {
    await ordersRefused(false);
  }
});
afterAll(() => server?.close());

describe('GET /api/admin/webhooks', () => {
  it('lists events by status, newest first, with the count of each status', async () => {
    const all = await list();
    expect(all.counts).toEqual({ processed: 1, ignored: 2, failed: 1 });
    expect(all.total).toBe(4);
    expect(all.items.map((event) => event.webhook_id)).toEqual(['misslyckad-1', 'testorder-1', 'okand-1', 'visad-1']);

    expect((await list('processed')).items.map((event) => [event.webhook_id, event.status, event.error])).toEqual([
      ['visad-1', 'processed', null],
    ]);
    expect((await list('ignored')).items.map((event) => [event.webhook_id, event.status])).toEqual([
      ['testorder-1', 'ignored'],
      ['okand-1', 'ignored'],
    ]);
    const failed = await list('failed');
    expect(failed.total).toBe(1);
    expect(failed.items[0]).toMatchObject({ webhook_id: 'misslyckad-1', status: 'failed', processed_at: null, attempts: 1 });
  });

  it("shows a failed event's error with the buyer masked", async () => {
    const [failed] = (await list('failed')).items;
    expect(failed!.error).toContain('ordern kunde inte sparas');
    expect(failed!.error).toContain('a***@e***.se');
    expect(failed!.error).toContain('0***67');
  });

  it('pages', async () => {
    const first = await list(undefined, 1);
    const second = await list(undefined, 2);
    expect(first).toMatchObject({ page: 1, page_size: 2, total: 4 });
    expect([...first.items, ...second.items].map((event) => event.webhook_id)).toEqual([
      'misslyckad-1',
      'testorder-1',
      'okand-1',
      'visad-1',
    ]);
  });

  it('refuses an unknown status in Swedish', async () => {
    const response = await server.request('GET', '/api/admin/webhooks?status=borta', { token: admin });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('Okänd status');
  });
});

describe('GET /api/admin/webhooks/{id}', () => {
  it("shows what Shopify sent, the order and its lines, with no buyer's name, address, e-mail address or phone", async () => {
    const response = await server.request('GET', `/api/admin/webhooks/${await eventIdOf('visad-1')}`, { token: admin });
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const personal of BUYER_TEXTS) expect(text, personal).not.toContain(personal);
    const event = JSON.parse(text) as TWebhookEventDetail;
    const payload = event.payload as {
      name: string;
      billing_address?: unknown;
      line_items: { title: string }[];
      note_attributes: unknown;
    };
    expect(payload.name).toBe('#1');
    // The buyer was never stored (decision 035); the viewer still masks an event stored before that.
    expect(payload.billing_address).toBeUndefined();
    expect(payload.line_items.map((line) => line.title)).toContain('Bivaxdukar 3-pack');
    expect(payload.note_attributes).toEqual([{ name: 'ref', value: noah.linkCode }]);
  });

  it('answers 404 in Swedish for an event that does not exist', async () => {
    const response = await server.request('GET', '/api/admin/webhooks/999999', { token: admin });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('Webbhändelse 999999 finns inte');
  });

  it("never shows a buyer in any list's answer", async () => {
    for (const status of [undefined, 'processed', 'ignored', 'failed']) {
      const text = JSON.stringify(await list(status));
      for (const personal of BUYER_TEXTS) expect(text, `${status}: ${personal}`).not.toContain(personal);
    }
  });
});

describe('POST /api/admin/webhooks/{id}/replay', () => {
  it('processes a failed event once, audited in its transaction; a second replay changes nothing', async () => {
    const eventId = await eventIdOf('misslyckad-1');
    const before = await figuresNow();

    const first = await replay(eventId);
    expect(first).toMatchObject({ ok: true, result: 'processed', event: { id: eventId, status: 'processed', error: null, attempts: 2 } });
    const after = await figuresNow();
    const [order] = await query<{ subtotal_ore: string }>(sql`select subtotal_ore from orders where shopify_order_id = 7300000000003`);
    const orderOre = Number(order!.subtotal_ore);
    expect(orderOre).toBeGreaterThan(0);
    expect(after.orders).toBe(before.orders + 1);
    expect(after.sellerOrders.sales_ore).toBe(before.sellerOrders.sales_ore + orderOre);
    expect(after.sellerOrders.orders_count).toBe(before.sellerOrders.orders_count + 1);
    expect(after.group.sales_ore).toBe(before.group.sales_ore + orderOre);
    expect(after.seller).toBeCloseTo(before.seller + orderOre / 100, 2);
    expect(after.audits).toBe(before.audits + 1);
    const [audit] = await query<{ actor: string; target_type: string; target_id: string }>(
      sql`select u.email as actor, a.target_type, a.target_id from audit_entries a join users u on u.id = a.actor_user_id
          where a.action = 'webhook.replay' order by a.id desc limit 1`,
    );
    expect(audit).toEqual({ actor: 'admin@saljportalen.se', target_type: 'webhook_event', target_id: String(eventId) });

    const second = await replay(eventId);
    expect(second).toMatchObject({ result: 'already_processed', message: 'Händelsen var redan behandlad: inget ändrades.' });
    expect(await figuresNow()).toEqual(after);
    expect(await ledgerViolations(server.app.db)).toEqual([]);
    expect((await list()).counts).toEqual({ processed: 2, ignored: 2, failed: 0 });
  });

  it('changes nothing for an event Shopify redelivered (and so processed) after it failed', async () => {
    const order = orderWithBuyer(7_300_000_000_004);
    await ordersRefused(true);
    try {
      await sendShopifyWebhook(server.url, 'orders/create', order, { webhookId: 'omlevererad-1' });
    } finally {
      await ordersRefused(false);
    }
    const eventId = await eventIdOf('omlevererad-1');
    expect((await list('failed')).items.map((event) => event.id)).toEqual([eventId]);
    // Shopify tries again on its own and this time it goes through.
    expect((await sendShopifyWebhook(server.url, 'orders/create', order, { webhookId: 'omlevererad-1' })).status).toBe(200);
    const before = await figuresNow();
    expect((await replay(eventId)).result).toBe('already_processed');
    expect(await figuresNow()).toEqual(before);
  });

  it('counts an order once when two replays of one event arrive together', async () => {
    await ordersRefused(true);
    try {
      await sendShopifyWebhook(server.url, 'orders/create', orderWithBuyer(7_300_000_000_005), { webhookId: 'samtidig-1' });
    } finally {
      await ordersRefused(false);
    }
    const eventId = await eventIdOf('samtidig-1');
    const before = await figuresNow();
    const results = await Promise.all([replay(eventId), replay(eventId), replay(eventId)]);
    expect(results.map((result) => result.result).sort()).toEqual(['already_processed', 'already_processed', 'processed']);
    const after = await figuresNow();
    expect(after.orders).toBe(before.orders + 1);
    expect(after.sellerOrders.orders_count).toBe(before.sellerOrders.orders_count + 1);
    expect(after.audits).toBe(before.audits + 1);
    expect(await ledgerViolations(server.app.db)).toEqual([]);
  });

  it('keeps an event that fails again as failed, with its masked error, and audits nothing', async () => {
    await ordersRefused(true);
    try {
      await sendShopifyWebhook(server.url, 'orders/create', orderWithBuyer(7_300_000_000_006), { webhookId: 'igen-trasig-1' });
      const eventId = await eventIdOf('igen-trasig-1');
      const before = await figuresNow();
      const result = await replay(eventId);
      expect(result).toMatchObject({ result: 'failed', event: { status: 'failed', attempts: 2 } });
      expect(result.message).toContain('a***@e***.se');
      expect(result.message).not.toContain('astrid');
      expect(await figuresNow()).toEqual(before);
    } finally {
      await ordersRefused(false);
    }
  });

  it('answers 404 for an event that does not exist, and 400 for an id that is none', async () => {
    expect((await server.request('POST', '/api/admin/webhooks/999999/replay', { token: admin })).status).toBe(404);
    expect((await server.request('POST', '/api/admin/webhooks/abc/replay', { token: admin })).status).toBe(400);
  });
});
