import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TGroupTotalsResponse, TFullLeaderboard, TMeSummaryResponse } from '@saljportalen/contract';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sqlRows } from '../../../test/admin-fixtures.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
  await addRefundedAndCancelledOrders();
});
afterAll(() => server.close());

async function rows<T>(query: SQL): Promise<T[]> {
  return sqlRows<T>(server.app.db, query);
}

async function json<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const response = await server.request(method, path, { token, body });
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function membershipOf(email: string, groupCode: string) {
  const [row] = await rows<{ id: number; user_id: number; group_id: number; link_code: string; role: string }>(sql`
    select m.id, m.user_id, m.group_id, m.link_code, m.role::text as role
    from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
    where u.email = ${email} and g.code = ${groupCode}`);
  return row!;
}

/** The figures straight from the orders table, by the rules every capability shares. */
async function sumsWhere(condition: SQL) {
  const [row] = await rows<{ sales: string; commission: string; orders: string }>(sql`
    select coalesce(sum(subtotal_ore), 0)::text as sales, coalesce(sum(commission_ore), 0)::text as commission,
           count(*) filter (where state <> 'cancelled')::text as orders
    from orders where ${condition}`);
  return { sales: Number(row!.sales) / 100, commission: Number(row!.commission) / 100, orders: Number(row!.orders) };
}

/**
 * The seed has only paid orders. Elsa in 6B gets one partly refunded (net amounts lower, still
 * counted) and one cancelled (net zero, not counted), as the orders capability books them.
 */
async function addRefundedAndCancelledOrders() {
  const elsa = await membershipOf('elsa@demo.se', 'BJK6B2');
  const refunded = { sale: 29_800, saleCommission: 7_450, refund: -14_900, refundCommission: -3_725 };
  const [partly] = await rows<{ id: number }>(sql`
    insert into orders (shopify_order_id, order_name, ordered_at, membership_id, group_id, subtotal_ore, commission_ore, state)
    values (9900000000001, '#9001', now() - interval '2 days', ${elsa.id}, ${elsa.group_id},
            ${refunded.sale + refunded.refund}, ${refunded.saleCommission + refunded.refundCommission}, 'partially_refunded')
    returning id`);
  await server.app.db.execute(sql`
    insert into order_lines (order_id, kind, title, quantity, amount_ore, commission_ore, group_id, membership_id, booked_at)
    values (${partly!.id}, 'sale', 'Bivaxdukar 3-pack', 2, ${refunded.sale}, ${refunded.saleCommission}, ${elsa.group_id}, ${elsa.id}, now() - interval '2 days'),
           (${partly!.id}, 'refund', 'Bivaxdukar 3-pack', -1, ${refunded.refund}, ${refunded.refundCommission}, ${elsa.group_id}, ${elsa.id}, now() - interval '1 day')`);
  const [cancelled] = await rows<{ id: number }>(sql`
    insert into orders (shopify_order_id, order_name, ordered_at, membership_id, group_id, subtotal_ore, commission_ore, state)
    values (9900000000002, '#9002', now() - interval '3 days', ${elsa.id}, ${elsa.group_id}, 0, 0, 'cancelled')
    returning id`);
  await server.app.db.execute(sql`
    insert into order_lines (order_id, kind, title, quantity, amount_ore, commission_ore, group_id, membership_id, booked_at)
    values (${cancelled!.id}, 'sale', 'Svensk honung 350 g', 1, 10900, 2725, ${elsa.group_id}, ${elsa.id}, now() - interval '3 days'),
           (${cancelled!.id}, 'cancellation', 'Svensk honung 350 g', -1, -10900, -2725, ${elsa.group_id}, ${elsa.id}, now() - interval '2 days')`);
}

describe('without a session', () => {
  it('answers 401 on every seller call', async () => {
    for (const [method, path] of [
      ['GET', '/api/me/summary'],
      ['GET', '/api/group/totals'],
      ['GET', '/api/group/leaderboard-mine'],
      ['POST', '/api/group/settings'],
      ['GET', '/api/catalog/me.pdf'],
    ] as const) {
      const response = await server.request(method, path, method === 'POST' ? { body: { group_id: 1, show_leaderboard: true } } : {});
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('GET /api/me/summary', () => {
  it("gives the seller's own figures in the active group, equal to the orders' sums", async () => {
    const token = await server.login('elsa@demo.se');
    const membership = await membershipOf('elsa@demo.se', 'BJK6B2');
    const expected = await sumsWhere(sql`membership_id = ${membership.id}`);
    const [group] = await rows<{ id: number; name: string; code: string }>(sql`select id, name, code from groups where code = 'BJK6B2'`);

    const summary = await json<TMeSummaryResponse>('GET', '/api/me/summary', token);
    expect(summary).toEqual({
      user: {
        id: membership.user_id,
        full_name: 'Elsa Andersson',
        public_seller_name: 'Elsa',
        role: 'seller',
        awaiting_guardian_consent: false,
        is_guardian: false,
      },
      group_hint: { id: group!.id, name: group!.name, code: 'BJK6B2', leaderboard_visible: true, archived: false },
      personal: {
        total_sales: expected.sales,
        total_commission: expected.commission,
        personal_link: `http://localhost:3000/s/${membership.link_code}`,
        orders_count: expected.orders,
        goal: null,
        // No holding period by default: nothing waits (holding-period.api.test.ts has one).
        pending_commission: 0,
      },
      payout_hold_days: 0,
    });
    // The refund is netted and the cancelled order is not counted.
    const [raw] = await rows<{ orders: string }>(sql`select count(*)::text as orders from orders where membership_id = ${membership.id}`);
    expect(summary.personal.orders_count).toBe(Number(raw!.orders) - 1);
  });

  it("gives a group admin the role 'admin'", async () => {
    const token = await server.login('larare@bjorkskolan.se');
    expect((await json<TMeSummaryResponse>('GET', '/api/me/summary', token)).user.role).toBe('admin');
  });

  it('gives zeros and no link to a user without an active group', async () => {
    const token = await server.login('admin@saljportalen.se');
    const summary = await json<TMeSummaryResponse>('GET', '/api/me/summary', token);
    expect(summary.group_hint).toBeNull();
    expect(summary.user.role).toBeNull();
    expect(summary.personal).toEqual({
      total_sales: 0,
      total_commission: 0,
      personal_link: null,
      orders_count: 0,
      goal: null,
      pending_commission: 0,
    });
  });

  it('treats an active group the user is no longer a member of as none', async () => {
    const token = await server.login('noah@demo.se');
    await server.app.db.execute(
      sql`update users set active_group_id = (select id from groups where code = 'SCT482') where email = 'noah@demo.se'`,
    );
    try {
      expect((await json<TMeSummaryResponse>('GET', '/api/me/summary', token)).group_hint).toBeNull();
      expect((await json<TGroupTotalsResponse>('GET', '/api/group/totals', token)).totals.orders_count).toBe(0);
      expect((await json<TFullLeaderboard>('GET', '/api/group/leaderboard-mine', token)).items).toEqual([]);
    } finally {
      await server.app.db.execute(
        sql`update users set active_group_id = (select id from groups where code = 'BJK6B2') where email = 'noah@demo.se'`,
      );
    }
  });
});

describe('GET /api/group/totals', () => {
  it("gives the active group's totals, equal to the orders' sums", async () => {
    const token = await server.login('noah@demo.se');
    const { group_id } = await membershipOf('noah@demo.se', 'BJK6B2');
    const expected = await sumsWhere(sql`group_id = ${group_id}`);
    expect(await json<TGroupTotalsResponse>('GET', '/api/group/totals', token)).toMatchObject({
      show_leaderboard: true,
      leaderboard_mode: 'full',
      totals: { total_sales: expected.sales, total_commission: expected.commission, orders_count: expected.orders },
    });
  });
});

describe('GET /api/group/leaderboard-mine', () => {
  it('lists every member, with their own sums, highest sales first', async () => {
    const token = await server.login('noah@demo.se');
    const { group_id } = await membershipOf('noah@demo.se', 'BJK6B2');
    const members = await rows<{ membership_id: number; user_id: number; full_name: string }>(sql`
      select m.id as membership_id, m.user_id, u.full_name from memberships m join users u on u.id = m.user_id where m.group_id = ${group_id}`);

    const leaderboard = await json<TFullLeaderboard>('GET', '/api/group/leaderboard-mine', token);
    expect(leaderboard.mode).toBe('full');
    expect(leaderboard.group).toEqual({ leaderboard_visible: true });
    expect(leaderboard.items).toHaveLength(members.length);
    for (const member of members) {
      const expected = await sumsWhere(sql`membership_id = ${member.membership_id}`);
      expect(leaderboard.items).toContainEqual({
        user_id: member.user_id,
        seller_name: member.full_name,
        sales: expected.sales,
        commission: expected.commission,
      });
    }
    const sales = leaderboard.items.map((item) => item.sales);
    expect(sales).toEqual([...sales].sort((a, b) => b - a));

    // The same answer compressed for a browser, as is for a client that takes no compression.
    for (const [accepted, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
    ]) {
      const compressed = await server.request('GET', '/api/group/leaderboard-mine', { token, headers: { 'accept-encoding': accepted! } });
      expect(compressed.headers.get('content-encoding')).toBe(encoding);
      expect(compressed.headers.get('vary')).toContain('Accept-Encoding');
      expect(await compressed.json()).toEqual(leaderboard);
    }
    const plain = await server.request('GET', '/api/group/leaderboard-mine', { token, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.json()).toEqual(leaderboard);
  });

  it('lists members without orders with 0, and breaks a tie by name in Swedish order', async () => {
    const { group_id } = await membershipOf('ledare@tallen.se', 'SCT482');
    const created = await rows<{ id: number }>(sql`
      insert into users (email, password_hash, full_name, active_group_id)
      values ('alva@demo.se', 'x', 'Älva Nyström', ${group_id}), ('ake@demo.se', 'x', 'Åke Nyström', ${group_id})
      returning id`);
    await server.app.db.execute(sql`
      insert into memberships (user_id, group_id, role, link_code)
      values (${created[0]!.id}, ${group_id}, 'seller', 'TESTALV1'), (${created[1]!.id}, ${group_id}, 'seller', 'TESTAKE1')`);

    const token = await server.login('ledare@tallen.se');
    const items = (await json<TFullLeaderboard>('GET', '/api/group/leaderboard-mine', token)).items;
    // Swedish order is Å before Ä; a byte-wise (C collation) sort would put Ä first.
    expect(items.slice(-2)).toEqual([
      { user_id: created[1]!.id, seller_name: 'Åke Nyström', sales: 0, commission: 0 },
      { user_id: created[0]!.id, seller_name: 'Älva Nyström', sales: 0, commission: 0 },
    ]);

    const akeToken = await server.app.accessTokens.sign({ userId: created[1]!.id, tokenVersion: 0 });
    expect((await json<TMeSummaryResponse>('GET', '/api/me/summary', akeToken)).personal).toEqual({
      total_sales: 0,
      total_commission: 0,
      personal_link: 'http://localhost:3000/s/TESTAKE1',
      orders_count: 0,
      goal: null,
      pending_commission: 0,
    });
  });
});

describe('leaderboard visibility', () => {
  it('is withheld from sellers while the group admin hides it, and comes back when shown', async () => {
    const admin = await server.login('larare@bjorkskolan.se');
    const seller = await server.login('noah@demo.se');
    const { group_id } = await membershipOf('larare@bjorkskolan.se', 'BJK6B2');
    const [{ count }] = (await rows<{ count: string }>(
      sql`select count(*)::text as count from memberships where group_id = ${group_id}`,
    )) as [{ count: string }];

    expect(await json('POST', '/api/group/settings', admin, { group_id, show_leaderboard: false })).toEqual({
      ok: true,
      show_leaderboard: false,
      leaderboard_mode: 'full',
    });
    expect(await json('GET', '/api/group/leaderboard-mine', seller)).toEqual({
      mode: 'full',
      group: { leaderboard_visible: false },
      items: [],
    });
    expect((await json<TGroupTotalsResponse>('GET', '/api/group/totals', seller)).show_leaderboard).toBe(false);
    expect((await json<TMeSummaryResponse>('GET', '/api/me/summary', seller)).group_hint?.leaderboard_visible).toBe(false);
    const adminView = await json<TFullLeaderboard>('GET', '/api/group/leaderboard-mine', admin);
    expect(adminView.group.leaderboard_visible).toBe(false);
    expect(adminView.items).toHaveLength(Number(count));

    expect(await json('POST', '/api/group/settings', admin, { group_id, show_leaderboard: true })).toEqual({
      ok: true,
      show_leaderboard: true,
      leaderboard_mode: 'full',
    });
    const sellerView = await json<TFullLeaderboard>('GET', '/api/group/leaderboard-mine', seller);
    expect(sellerView.group.leaderboard_visible).toBe(true);
    expect(sellerView.items).toHaveLength(Number(count));

    const audit = await rows<{ actor_user_id: number; target_id: string; details: { show_leaderboard: boolean } }>(sql`
      select actor_user_id, target_id, details from audit_entries where action = 'group.leaderboard' order by id`);
    const [{ id: adminId }] = (await rows<{ id: number }>(sql`select id from users where email = 'larare@bjorkskolan.se'`)) as [
      { id: number },
    ];
    expect(audit).toEqual([
      { actor_user_id: adminId, target_id: String(group_id), details: { show_leaderboard: false } },
      { actor_user_id: adminId, target_id: String(group_id), details: { show_leaderboard: true } },
    ]);
  });

  it("refuses a seller, another group's admin, a superadmin who is not its admin, and an unknown group", async () => {
    const { group_id } = await membershipOf('larare@bjorkskolan.se', 'BJK6B2');
    const refusals = [
      [await server.login('noah@demo.se'), group_id],
      [await server.login('tranare@savedalen.se'), group_id],
      [await server.login('admin@saljportalen.se'), group_id],
      [await server.login('larare@bjorkskolan.se'), 999_999],
    ] as const;
    for (const [token, targetGroup] of refusals) {
      const response = await server.request('POST', '/api/group/settings', {
        token,
        body: { group_id: targetGroup, show_leaderboard: false },
      });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/administratör/);
    }
    const [group] = await rows<{ leaderboard_visible: boolean }>(sql`select leaderboard_visible from groups where id = ${group_id}`);
    expect(group!.leaderboard_visible).toBe(true);
  });

  it('refuses a malformed request with a Swedish 400', async () => {
    const token = await server.login('larare@bjorkskolan.se');
    for (const body of [{ group_id: 'sex', show_leaderboard: true }, { group_id: 1, show_leaderboard: 'ja' }, {}]) {
      const response = await server.request('POST', '/api/group/settings', { token, body });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/[a-zåäö]/i);
    }
  });
});

describe('a seller in two groups', () => {
  it("sees the other group's figures after switching, and the first group's again after switching back", async () => {
    const token = await server.login('elsa@demo.se');
    const football = await membershipOf('elsa@demo.se', 'SFKP24');
    const personal = await sumsWhere(sql`membership_id = ${football.id}`);
    const group = await sumsWhere(sql`group_id = ${football.group_id}`);

    expect(await json('POST', '/api/account/switch-group', token, { group_id: football.group_id })).toEqual({ ok: true });
    const summary = await json<TMeSummaryResponse>('GET', '/api/me/summary', token);
    expect(summary.group_hint).toMatchObject({ id: football.group_id, code: 'SFKP24', name: 'IK Sävedalen F12' });
    expect(summary.personal).toEqual({
      total_sales: personal.sales,
      total_commission: personal.commission,
      personal_link: `http://localhost:3000/s/${football.link_code}`,
      orders_count: personal.orders,
      goal: null,
      pending_commission: 0,
    });
    expect((await json<TGroupTotalsResponse>('GET', '/api/group/totals', token)).totals).toEqual({
      total_sales: group.sales,
      total_commission: group.commission,
      orders_count: group.orders,
      pending_commission: 0,
    });
    const [{ count }] = (await rows<{ count: string }>(
      sql`select count(*)::text as count from memberships where group_id = ${football.group_id}`,
    )) as [{ count: string }];
    expect((await json<TFullLeaderboard>('GET', '/api/group/leaderboard-mine', token)).items).toHaveLength(Number(count));

    const school = await membershipOf('elsa@demo.se', 'BJK6B2');
    await json('POST', '/api/account/switch-group', token, { group_id: school.group_id });
    const back = await json<TMeSummaryResponse>('GET', '/api/me/summary', token);
    expect(back.group_hint?.code).toBe('BJK6B2');
    expect(back.personal.total_sales).toBe((await sumsWhere(sql`membership_id = ${school.id}`)).sales);
  });
});
