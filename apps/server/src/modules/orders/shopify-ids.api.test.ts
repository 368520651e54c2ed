/**
 * Shopify's ids are 64-bit: every answer that carries one sends it as the exact string of digits.
 * Two orders whose ids differ only past 2^53 (as JS numbers both are 820982911946154500) arrive by
 * signed webhook and must stay two, in the database and in each answer.
 */
import { sqlRows } from '../../../test/admin-fixtures.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAdminSellerOrdersResponse, TShopifyWebhookReceipt, TUnattributedOrdersResponse } from '@saljportalen/contract';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sendShopifyWebhook, swedishOrder } from '../../../test/shopify-webhooks.js';

const IDS = ['820982911946154508', '820982911946154509'] as const;

let server: TestServer;
let superadmin: string;
let elsa: { userId: number; membershipId: number; groupId: number; linkCode: string };

/** The order without a name, so the receipt names it by its id; its line's id is past 2^53 too. */
function orderOf(id: string, refCode: string, updatedAt: string) {
  const order = swedishOrder({
    id: BigInt(id),
    refCode,
    createdAt: '2026-03-10T14:05:00+01:00',
    updatedAt,
    lineItems: [{ id: BigInt(id) * 10n, productId: null, title: 'Bivaxdukar', price: '149.00', quantity: 1 }],
  });
  return { ...order, name: null };
}

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  superadmin = await server.login('admin@saljportalen.se');
  const { rows } = (await server.app.db.execute(sql`
    select u.id as user_id, m.id as membership_id, m.group_id, m.link_code from memberships m
    join users u on u.id = m.user_id join groups g on g.id = m.group_id
    where u.email = 'elsa@demo.se' and g.code = 'BJK6B2'`)) as unknown as {
    rows: { user_id: number; membership_id: number; group_id: number; link_code: string }[];
  };
  elsa = { userId: rows[0]!.user_id, membershipId: rows[0]!.membership_id, groupId: rows[0]!.group_id, linkCode: rows[0]!.link_code };
});
afterAll(() => server.close());

describe('Shopify ids past 2^53', () => {
  it('arrive as two orders, each listed with its exact id while it has no seller', async () => {
    for (const id of IDS) {
      const response = await sendShopifyWebhook(server.url, 'orders/create', orderOf(id, 'OKAND1', '2026-03-10T14:05:00+01:00'));
      expect(response.status).toBe(200);
      // Without an order name, the receipt names the order by its id.
      expect(((await response.json()) as TShopifyWebhookReceipt).outcome).toContain(`Order ${id} registrerad`);
    }
    const response = await server.request('GET', '/api/admin/orders/unattributed', { token: superadmin });
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const id of IDS) expect(text).toContain(`"shopify_order_id":"${id}"`);
    const body = JSON.parse(text) as TUnattributedOrdersResponse;
    expect(
      body.items
        .filter((item) => IDS.includes(item.shopify_order_id as (typeof IDS)[number]))
        .map((item) => item.shopify_order_id)
        .sort(),
    ).toEqual([...IDS]);
  });

  it("are listed with their exact ids among the seller's orders once attributed", async () => {
    for (const id of IDS) {
      const response = await sendShopifyWebhook(server.url, 'orders/updated', orderOf(id, elsa.linkCode, '2026-03-10T15:00:00+01:00'));
      expect(response.status).toBe(200);
    }
    for (const query of [`?group_id=${elsa.groupId}&limit=100`, '?limit=100']) {
      const response = await server.request('GET', `/api/admin/seller/${elsa.userId}/orders${query}`, { token: superadmin });
      expect(response.status).toBe(200);
      const text = await response.text();
      // The raw JSON, not a parsed number: a number here would already have lost the last digits.
      for (const id of IDS) expect(text).toContain(`"shopify_order_id":"${id}"`);
      const body = JSON.parse(text) as TAdminSellerOrdersResponse;
      expect(body.items.every((item) => typeof item.shopify_order_id === 'string' && /^\d+$/.test(item.shopify_order_id))).toBe(true);
    }
    const rows = await sqlRows<{ id: string; membership_id: number }>(
      server.app.db,
      sql`select shopify_order_id::text as id, membership_id from orders where shopify_order_id in (${IDS[0]}::bigint, ${IDS[1]}::bigint) order by 1`,
    );
    expect(rows).toEqual(IDS.map((id) => ({ id, membership_id: elsa.membershipId })));
  });
});
