import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sendShopifyWebhook, swedishOrder } from '../../../test/shopify-webhooks.js';
import type { TAssignOrderResponse, TUnattributedOrdersResponse } from '@saljportalen/contract';
import { sqlRows } from '../../../test/admin-fixtures.js';

let server: TestServer;
let superadmin: string;

async function query<T>(statement: SQL): Promise<T[]> {
  return sqlRows<T>(server.app.db, statement);
}

const UNATTRIBUTED = [7_600_000_000_001, 7_600_000_000_002, 7_600_000_000_003];

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  superadmin = await server.login('admin@saljportalen.se');
  // Three orders no seller's code matches: one with an unknown ref, one with none, one with only a shop discount code.
  await sendShopifyWebhook(
    server.url,
    'orders/create',
    swedishOrder({ id: UNATTRIBUTED[0]!, refCode: 'OKAND123', createdAt: '2026-03-01T10:00:00+01:00' }),
  );
  await sendShopifyWebhook(server.url, 'orders/create', swedishOrder({ id: UNATTRIBUTED[1]!, createdAt: '2026-03-02T10:00:00+01:00' }));
  await sendShopifyWebhook(
    server.url,
    'orders/create',
    swedishOrder({ id: UNATTRIBUTED[2]!, discountCodes: ['SOMMAR20'], createdAt: '2026-03-03T10:00:00+01:00' }),
  );
});
afterAll(() => server.close());

describe('GET /api/admin/orders/unattributed', () => {
  it('lists the orders without a seller, newest first, with their figures and the code they carried', async () => {
    const response = await server.request('GET', '/api/admin/orders/unattributed', { token: superadmin });
    expect(response.status).toBe(200);
    const body = (await response.json()) as TUnattributedOrdersResponse;
    const expected = await query<{
      id: number;
      shopify_order_id: string;
      subtotal_ore: number;
      commission_ore: number;
      ref_code: string | null;
    }>(sql`
      select id::int, shopify_order_id::text, subtotal_ore::int, commission_ore::int, ref_code from orders
      where membership_id is null order by ordered_at desc, id desc`);
    expect(body.total).toBe(expected.length);
    expect(
      body.items.map((item) => [item.order_id, item.shopify_order_id, item.subtotal_incl_vat, item.commission_total, item.ref_code]),
    ).toEqual(expected.map((row) => [row.id, row.shopify_order_id, row.subtotal_ore / 100, row.commission_ore / 100, row.ref_code]));
    expect(body.items.map((item) => item.shopify_order_id)).toEqual(UNATTRIBUTED.map(String).reverse());
    // An unknown ref is worth showing; a shop discount code that matched no one is not a ref.
    expect(body.items.map((item) => item.ref_code)).toEqual([null, null, 'OKAND123']);
  });

  it('pages on the server with an exact total', async () => {
    const page = (await (
      await server.request('GET', '/api/admin/orders/unattributed?page=2&page_size=2', { token: superadmin })
    ).json()) as TUnattributedOrdersResponse;
    expect(page).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(page.items.map((item) => item.shopify_order_id)).toEqual([String(UNATTRIBUTED[0])]);
    const invalid = await server.request('GET', '/api/admin/orders/unattributed?page_size=5000', { token: superadmin });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { message: string } }).error.message).toBe('Högst 200 ordrar per sida');
  });

  it('is for superadmins only', async () => {
    expect((await server.request('GET', '/api/admin/orders/unattributed')).status).toBe(401);
    const seller = await server.login('elsa@demo.se');
    expect((await server.request('GET', '/api/admin/orders/unattributed', { token: seller })).status).toBe(403);
    const groupAdmin = await server.login('larare@bjorkskolan.se');
    expect((await server.request('POST', '/api/admin/orders/1/assign', { token: groupAdmin, body: { membership_id: 1 } })).status).toBe(
      403,
    );
  });
});

describe('POST /api/admin/orders/{id}/assign', () => {
  it('attributes the order and its lines to the seller, and writes an audit entry', async () => {
    const [order] = await query<{ id: number }>(sql`select id::int from orders where shopify_order_id = ${UNATTRIBUTED[0]}`);
    const [elsa] = await query<{ id: number; group_id: number }>(sql`
      select m.id, m.group_id from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
      where u.email = 'elsa@demo.se' and g.code = 'SFKP24'`);
    const response = await server.request('POST', `/api/admin/orders/${order!.id}/assign`, {
      token: superadmin,
      body: { membership_id: elsa!.id },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as TAssignOrderResponse).order).toMatchObject({
      order_id: order!.id,
      membership_id: elsa!.id,
      group_id: elsa!.group_id,
      group_name: 'IK Sävedalen F12',
    });

    const lines = await query<{ membership_id: number; group_id: number }>(
      sql`select membership_id, group_id from order_lines where order_id = ${order!.id}`,
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.membership_id === elsa!.id && line.group_id === elsa!.group_id)).toBe(true);
    const [audit] = await query<{
      action: string;
      actor: string;
      details: { to_membership_id: number; from_membership_id: number | null };
    }>(sql`
      select a.action, u.email as actor, a.details from audit_entries a join users u on u.id = a.actor_user_id
      where a.target_type = 'order' and a.target_id = ${String(order!.id)}`);
    expect(audit).toEqual({
      action: 'order.assign',
      actor: 'admin@saljportalen.se',
      details: expect.objectContaining({ from_membership_id: null, to_membership_id: elsa!.id }),
    });

    const list = (await (
      await server.request('GET', '/api/admin/orders/unattributed', { token: superadmin })
    ).json()) as TUnattributedOrdersResponse;
    expect(list.total).toBe(2);
  });

  it('answers an unknown order or seller with 404, a bad body with 400, and a settled order with 409', async () => {
    const [order] = await query<{ id: number }>(sql`select id::int from orders where shopify_order_id = ${UNATTRIBUTED[1]}`);
    const [membership] = await query<{ id: number; group_id: number }>(sql`select id, group_id from memberships order by id limit 1`);
    const unknownOrder = await server.request('POST', '/api/admin/orders/999999999/assign', {
      token: superadmin,
      body: { membership_id: membership!.id },
    });
    expect([unknownOrder.status, ((await unknownOrder.json()) as { error: { message: string } }).error.message]).toEqual([
      404,
      'Ordern hittades inte',
    ]);
    const unknownSeller = await server.request('POST', `/api/admin/orders/${order!.id}/assign`, {
      token: superadmin,
      body: { membership_id: 999999 },
    });
    expect([unknownSeller.status, ((await unknownSeller.json()) as { error: { message: string } }).error.message]).toEqual([
      404,
      'Säljaren hittades inte',
    ]);
    const badBody = await server.request('POST', `/api/admin/orders/${order!.id}/assign`, {
      token: superadmin,
      body: { membership_id: 'elsa' },
    });
    expect([badBody.status, ((await badBody.json()) as { error: { message: string } }).error.message]).toEqual([400, 'Välj en säljare']);

    // An attributed order whose line a payout has settled cannot move.
    const [settled] = await query<{ order_id: number }>(sql`select order_id::int from order_lines where payout_id is not null limit 1`);
    const moved = await server.request('POST', `/api/admin/orders/${settled!.order_id}/assign`, {
      token: superadmin,
      body: { membership_id: membership!.id },
    });
    expect(moved.status).toBe(409);
    expect(((await moved.json()) as { error: { message: string } }).error.message).toContain('avräkning');
  });

  it('with only_if_unattributed, assigns an order without a seller but leaves one someone else assigned meanwhile', async () => {
    const [order] = await query<{ id: number }>(sql`select id::int from orders where shopify_order_id = ${UNATTRIBUTED[2]}`);
    const [noah] = await query<{ id: number; group_id: number }>(sql`
      select m.id, m.group_id from memberships m join users u on u.id = m.user_id where u.email = 'noah@demo.se' order by m.id limit 1`);
    const [elsa] = await query<{ id: number }>(sql`
      select m.id from memberships m join users u on u.id = m.user_id where u.email = 'elsa@demo.se' order by m.id limit 1`);
    const assign = (membershipId: number) =>
      server.request('POST', `/api/admin/orders/${order!.id}/assign`, {
        token: superadmin,
        body: { membership_id: membershipId, only_if_unattributed: true },
      });

    const first = await assign(noah!.id);
    expect(first.status).toBe(200);
    expect(((await first.json()) as TAssignOrderResponse).order).toMatchObject({ membership_id: noah!.id, group_id: noah!.group_id });
    // The same choice again (a second click, a second admin agreeing) changes nothing and succeeds.
    expect((await assign(noah!.id)).status).toBe(200);
    // Another seller from a list that is out of date: refused, and the order stays with Noah.
    const second = await assign(elsa!.id);
    expect([second.status, ((await second.json()) as { error: { message: string } }).error.message]).toEqual([
      409,
      'Ordern har redan tilldelats en säljare',
    ]);
    const [after] = await query<{ membership_id: number }>(sql`select membership_id from orders where id = ${order!.id}`);
    expect(Number(after!.membership_id)).toBe(noah!.id);
    const bad = await server.request('POST', `/api/admin/orders/${order!.id}/assign`, {
      token: superadmin,
      body: { membership_id: elsa!.id, only_if_unattributed: 'ja' },
    });
    expect(bad.status).toBe(400);
  });
});
