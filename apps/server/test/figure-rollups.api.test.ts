/**
 * The figure rollups (decision 007) against the orders themselves: after every kind of write the
 * product makes (webhook orders, cancellations, refunds, assignment, bulk SQL, members joining and
 * leaving or moving group, a new name), every membership's and group's rollup equals the sums straight from
 * `orders`, and the leaderboard (cached per figures version) shows the change at once.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TFullLeaderboard } from '@saljportalen/contract';
import { membershipOf, sqlRows } from './admin-fixtures.js';
import { rollupMismatches } from './ledger-invariants.js';
import { sendShopifyWebhook, swedishOrder, swedishRefund } from './shopify-webhooks.js';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
});
afterAll(() => server.close());

const exact = { memberships: [], groups: [], orphans: [] };

async function leaderboard(token: string): Promise<TFullLeaderboard> {
  const response = await server.request('GET', '/api/group/leaderboard-mine', { token });
  expect(response.status).toBe(200);
  return (await response.json()) as TFullLeaderboard;
}

describe('figure rollups', () => {
  it('equal the orders after the seed', async () => {
    expect(await rollupMismatches(server.app.db)).toEqual(exact);
  });

  it('follow webhook orders, a cancellation, a refund and an assignment', async () => {
    const elsa = await membershipOf(server.app.db, 'elsa@demo.se', 'BJK6B2');
    const [code] = await sqlRows<{ link_code: string }>(server.app.db, sql`select link_code from memberships where id = ${elsa.id}`);
    const paid = swedishOrder({ id: 7_300_000_000_001, refCode: code!.link_code });
    const cancelled = swedishOrder({ id: 7_300_000_000_002, refCode: code!.link_code });
    const stray = swedishOrder({ id: 7_300_000_000_003, refCode: 'INGENKOD' });
    for (const order of [paid, cancelled, stray]) expect((await sendShopifyWebhook(server.url, 'orders/create', order)).status).toBe(200);
    expect(await rollupMismatches(server.app.db)).toEqual(exact);

    const cancellation = swedishOrder({
      id: 7_300_000_000_002,
      refCode: code!.link_code,
      financialStatus: 'voided',
      cancelledAt: '2026-03-11T10:00:00+01:00',
      updatedAt: '2026-03-11T10:00:00+01:00',
    });
    expect((await sendShopifyWebhook(server.url, 'orders/cancelled', cancellation)).status).toBe(200);
    const refund = swedishRefund({
      id: 7_400_000_000_001,
      orderId: 7_300_000_000_001,
      lines: [{ id: 1, lineItemId: 7_200_000_000_001, quantity: 1 }],
    });
    expect((await sendShopifyWebhook(server.url, 'refunds/create', refund)).status).toBe(200);
    const states = await sqlRows<{ state: string; refunds: number }>(
      server.app.db,
      sql`select o.state, (select count(*)::int from order_lines l where l.order_id = o.id and l.kind = 'refund') as refunds
          from orders o where shopify_order_id in (7300000000001, 7300000000002) order by shopify_order_id`,
    );
    expect(states).toEqual([
      { state: 'paid', refunds: 1 },
      { state: 'cancelled', refunds: 0 },
    ]);
    expect(await rollupMismatches(server.app.db)).toEqual(exact);

    const [unattributed] = await sqlRows<{ id: number }>(server.app.db, sql`select id from orders where shopify_order_id = 7300000000003`);
    const admin = await server.login('admin@saljportalen.se');
    const noah = await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2');
    const assigned = await server.request('POST', `/api/admin/orders/${unattributed!.id}/assign`, {
      token: admin,
      body: { membership_id: noah.id },
    });
    expect(assigned.status).toBe(200);
    expect(await rollupMismatches(server.app.db)).toEqual(exact);
  });

  it('follow bulk statements, members joining and leaving, and orders moved between members', async () => {
    const noah = await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2');
    // One statement of 2 000 orders for one seller, then one that changes them all.
    await server.app.db.execute(sql`
      insert into orders (shopify_order_id, order_name, ordered_at, membership_id, group_id, subtotal_ore, commission_ore, state)
      select 7500000000000 + i, '#R' || i, now() - i * interval '1 minute', ${noah.id}, ${noah.groupId}, 10000 + i, 2500, 
             case when i % 10 = 0 then 'cancelled' else 'paid' end
      from generate_series(1, 2000) as i`);
    await server.app.db.execute(
      sql`update orders set subtotal_ore = subtotal_ore + 1, state = 'paid' where shopify_order_id between 7500000000001 and 7500000002000`,
    );
    expect(await rollupMismatches(server.app.db)).toEqual(exact);

    const [user] = await sqlRows<{ id: number }>(
      server.app.db,
      sql`insert into users (email, password_hash, full_name) values ('ny@demo.se', 'x', 'Ny Säljare') returning id`,
    );
    const [member] = await sqlRows<{ id: number }>(
      server.app.db,
      sql`insert into memberships (user_id, group_id, role, link_code) values (${user!.id}, ${noah.groupId}, 'seller', 'ROLLUP01') returning id`,
    );
    await server.app.db.execute(
      sql`update orders set membership_id = ${member!.id} where shopify_order_id between 7500000000001 and 7500000000500`,
    );
    expect(await rollupMismatches(server.app.db)).toEqual(exact);

    // A membership moved to another group takes its rollup row (and so its place in that group's page) along.
    const [otherGroup] = await sqlRows<{ id: number }>(
      server.app.db,
      sql`select id from groups where id <> ${noah.groupId} order by id limit 1`,
    );
    await server.app.db.execute(sql`update memberships set group_id = ${otherGroup!.id} where id = ${member!.id}`);
    expect(await rollupMismatches(server.app.db)).toEqual(exact);

    // Leaving: the membership's own rollup goes, its orders stay the group's.
    await server.app.db.execute(sql`delete from memberships where id = ${member!.id}`);
    expect(await rollupMismatches(server.app.db)).toEqual(exact);
    await server.app.db.execute(sql`delete from orders where shopify_order_id between 7500000000001 and 7500000002000`);
    expect(await rollupMismatches(server.app.db)).toEqual(exact);
  });

  it('give the leaderboard a new order, a new member and a new name at once', async () => {
    const token = await server.login('noah@demo.se');
    const noah = await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2');
    const before = await leaderboard(token);
    const mine = () => before.items.find((item) => item.user_id === noah.userId)!;
    expect(mine()).toBeDefined();

    await server.app.db.execute(sql`
      insert into orders (shopify_order_id, order_name, ordered_at, membership_id, group_id, subtotal_ore, commission_ore, state)
      values (7600000000001, '#L1', now(), ${noah.id}, ${noah.groupId}, 123400, 30850, 'paid')`);
    const afterOrder = await leaderboard(token);
    expect(afterOrder.items.find((item) => item.user_id === noah.userId)).toMatchObject({
      sales: mine().sales + 1234,
      commission: mine().commission + 308.5,
    });

    const renamed = await server.request('POST', '/api/account/profile', { token, body: { full_name: 'Noah Östberg' } });
    expect(renamed.status).toBe(200);
    expect((await leaderboard(token)).items.find((item) => item.user_id === noah.userId)?.seller_name).toBe('Noah Östberg');

    const [user] = await sqlRows<{ id: number }>(
      server.app.db,
      sql`insert into users (email, password_hash, full_name) values ('aron@demo.se', 'x', 'Aron Ny') returning id`,
    );
    await server.app.db.execute(
      sql`insert into memberships (user_id, group_id, role, link_code) values (${user!.id}, ${noah.groupId}, 'seller', 'ROLLUP02')`,
    );
    const withNewMember = await leaderboard(token);
    expect(withNewMember.items).toHaveLength(afterOrder.items.length + 1);
    expect(withNewMember.items).toContainEqual({ user_id: user!.id, seller_name: 'Aron Ny', sales: 0, commission: 0 });
    expect(await rollupMismatches(server.app.db)).toEqual(exact);
  });
});
