import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TAdminGroupDetailResponse,
  TAdminGroupListResponse,
  TAdminOverviewResponse,
  TAdminSellerListResponse,
  TAdminSellerOrdersResponse,
} from '@saljportalen/contract';
import { stockholmDayStart } from '../../lib/dates.js';
import { oreToSek } from '../../lib/money.js';
import { figuresFromOrders, groupIdByCode, insertOrder, membershipOf, sqlRows, sumSek } from '../../../test/admin-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let adminToken: string;
let groupId6B: number;
let elsa6B: { id: number; userId: number; groupId: number };

const getJson = async <T>(path: string): Promise<T> => {
  const response = await server.request('GET', path, { token: adminToken });
  expect(response.status, `${path}: ${response.status}`).toBe(200);
  return (await response.json()) as T;
};

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  adminToken = await server.login('admin@saljportalen.se');
  groupId6B = await groupIdByCode(server.app.db, 'BJK6B2');
  elsa6B = await membershipOf(server.app.db, 'elsa@demo.se', 'BJK6B2');
  const elsaF12 = await membershipOf(server.app.db, 'elsa@demo.se', 'SFKP24');
  // Orders the demo data lacks: a cancelled one, a partly refunded one, and two on either side of a
  // Stockholm midnight on the day summer time starts (2025-03-30, a 23-hour day).
  await insertOrder(server.app.db, {
    membership: elsa6B,
    orderedAt: new Date('2025-06-01T10:00:00Z'),
    state: 'cancelled',
    lines: [{ amountOre: 14900 }, { amountOre: -14900, kind: 'cancellation' }],
  });
  await insertOrder(server.app.db, {
    membership: elsa6B,
    orderedAt: new Date('2025-06-02T10:00:00Z'),
    state: 'partially_refunded',
    lines: [
      { amountOre: 23800, quantity: 2 },
      { amountOre: -11900, kind: 'refund', bookedAt: new Date('2025-06-05T10:00:00Z') },
    ],
  });
  await insertOrder(server.app.db, { membership: elsaF12, orderedAt: stockholmDayStart('2025-03-30'), lines: [{ amountOre: 10050 }] });
  await insertOrder(server.app.db, {
    membership: elsaF12,
    orderedAt: new Date(stockholmDayStart('2025-03-30').getTime() - 1),
    lines: [{ amountOre: 777 }],
  });
  await insertOrder(server.app.db, {
    membership: elsaF12,
    orderedAt: new Date(stockholmDayStart('2025-03-31').getTime() - 1),
    lines: [{ amountOre: 333 }],
  });
  // Two orders no code matched: the overview counts them, no group's figures include them.
  await insertOrder(server.app.db, { membership: null, orderedAt: new Date('2025-06-03T10:00:00Z'), lines: [{ amountOre: 4900 }] });
  await insertOrder(server.app.db, {
    membership: null,
    orderedAt: new Date('2025-06-04T10:00:00Z'),
    state: 'cancelled',
    lines: [{ amountOre: 4900 }, { amountOre: -4900, kind: 'cancellation' }],
  });
});
afterAll(() => server.close());

describe('who may call the superadmin area', () => {
  const calls = (groupId: number, userId: number): [string, string, unknown?][] => [
    ['GET', '/api/admin/overview'],
    ['GET', '/api/admin/groups?status=active&q=klass'],
    ['POST', '/api/admin/groups/create', { group_name: 'Matrisgruppen' }],
    ['GET', `/api/admin/groups/${groupId}`],
    ['GET', '/api/admin/groups/options'],
    ['GET', `/api/admin/groups/${groupId}/members`],
    ['POST', `/api/admin/groups/${groupId}/add-user`, { email: 'matris@demo.se', role: 'seller', full_name: 'Matris Testsson' }],
    ['GET', `/api/admin/group/${groupId}`],
    ['POST', `/api/admin/group/${groupId}/archive`, { archived: false }],
    ['PATCH', `/api/admin/group/${groupId}`, { archived: false }],
    ['POST', `/api/admin/group/${groupId}/rename`, { name: 'Matrisnamn' }],
    ['GET', `/api/admin/group/${groupId}/export`],
    ['GET', '/api/admin/sellers?sort=orders_count'],
    ['GET', `/api/admin/seller/${userId}/orders?group_id=${groupId}`],
  ];

  it('answers 401 to a guest and to a forged token, 403 to a seller and to a group admin, and changes nothing', async () => {
    const sellerToken = await server.login('elsa@demo.se');
    const groupAdminToken = await server.login('larare@bjorkskolan.se');
    const before = await sqlRows(
      server.app.db,
      sql`select (select count(*) from groups) as g, (select count(*) from users) as u, (select count(*) from audit_entries) as a`,
    );
    for (const [method, path, body] of calls(groupId6B, elsa6B.userId)) {
      for (const [token, status] of [
        [undefined, 401],
        ['a.b.c', 401],
        [sellerToken, 403],
        [groupAdminToken, 403],
      ] as const) {
        const response = await server.request(method, path, { token, body });
        expect(response.status, `${method} ${path} → ${status}`).toBe(status);
        const answer = (await response.json()) as { error: { code: string; message: string } };
        expect(answer.error.message).toMatch(status === 401 ? /inte inloggad/ : /superadministratörer/);
      }
    }
    const after = await sqlRows(
      server.app.db,
      sql`select (select count(*) from groups) as g, (select count(*) from users) as u, (select count(*) from audit_entries) as a`,
    );
    expect(after).toEqual(before);
  });

  it('answers 200 to the superadmin on every call', async () => {
    for (const [method, path, body] of calls(groupId6B, elsa6B.userId)) {
      const response = await server.request(method, path, { token: adminToken, body });
      expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBe(200);
    }
    await server.request('POST', `/api/admin/group/${groupId6B}/rename`, { token: adminToken, body: { name: 'Klass 6B Björkskolan' } });
  });
});

describe('totals agree across overview, groups, group detail, sellers and the orders table', () => {
  it('overview = Σ groups = Σ sellers = orders table, and each group detail = its sellers = its orders', async () => {
    const db = server.app.db;
    const overview = await getJson<TAdminOverviewResponse>('/api/admin/overview');
    const groupList = await getJson<TAdminGroupListResponse>('/api/admin/groups?limit=500');
    const sellers = await getJson<TAdminSellerListResponse>('/api/admin/sellers?limit=500');

    const attributed = await figuresFromOrders(db, sql`group_id is not null`);
    expect(attributed.orders_count).toBeGreaterThan(250);
    expect(overview.total_sales).toBe(oreToSek(attributed.sales_ore));
    expect(overview.total_commission).toBe(oreToSek(attributed.commission_ore));
    expect(overview.orders_count).toBe(attributed.orders_count);

    const [counts] = await sqlRows<{ active: string; archived: string; memberships: string }>(
      db,
      sql`select (select count(*) from groups where not archived) as active, (select count(*) from groups where archived) as archived,
                 (select count(*) from memberships) as memberships`,
    );
    expect(overview.active_groups).toBe(Number(counts!.active));
    expect(overview.archived_groups).toBe(Number(counts!.archived));
    expect(overview.sellers_total).toBe(Number(counts!.memberships));
    // Orders without a seller (a cancelled one too) are counted apart and are nobody's sales.
    const [unattributed] = await sqlRows<{ count: string }>(db, sql`select count(*) as count from orders where membership_id is null`);
    expect(Number(unattributed!.count)).toBe(2);
    expect(overview.unattributed_orders).toBe(2);

    expect(groupList.total).toBe(overview.active_groups + overview.archived_groups);
    expect(sumSek(groupList.items.map((group) => group.total_sales))).toBe(overview.total_sales);
    expect(sumSek(groupList.items.map((group) => group.total_commission))).toBe(overview.total_commission);
    expect(groupList.items.reduce((sum, group) => sum + group.sellers_count, 0)).toBe(overview.sellers_total);

    expect(sellers.total).toBe(overview.sellers_total);
    expect(sellers.items).toHaveLength(sellers.total);
    expect(sumSek(sellers.items.map((seller) => seller.total_sales))).toBe(overview.total_sales);
    expect(sumSek(sellers.items.map((seller) => seller.total_commission))).toBe(overview.total_commission);
    expect(sellers.items.reduce((sum, seller) => sum + seller.orders_count, 0)).toBe(overview.orders_count);

    for (const group of groupList.items) {
      const detail = await getJson<TAdminGroupDetailResponse>(`/api/admin/group/${group.id}`);
      const fromOrders = await figuresFromOrders(db, sql`group_id = ${group.id}`);
      expect(detail.totals).toEqual({
        total_sales: oreToSek(fromOrders.sales_ore),
        total_commission: oreToSek(fromOrders.commission_ore),
        orders_count: fromOrders.orders_count,
        sellers_count: group.sellers_count,
      });
      expect(detail.group).toEqual(group);
      expect(detail.sellers).toHaveLength(group.sellers_count);
      expect(sumSek(detail.sellers.map((seller) => seller.total_sales))).toBe(detail.totals.total_sales);
      expect(sumSek(detail.sellers.map((seller) => seller.total_commission))).toBe(detail.totals.total_commission);
      expect(detail.sellers.reduce((sum, seller) => sum + seller.orders_count, 0)).toBe(detail.totals.orders_count);
      // Each row is the same in the detail and in the sellers list filtered on the group.
      const filtered = await getJson<TAdminSellerListResponse>(`/api/admin/sellers?group_id=${group.id}&limit=500`);
      expect(filtered.items).toEqual(detail.sellers);
    }
  });

  it('counts a cancelled order in no order count, and nets refunds and cancellations out of the sums', async () => {
    const db = server.app.db;
    const own = await figuresFromOrders(db, sql`membership_id = ${elsa6B.id}`);
    const [lines] = await sqlRows<{ sales: string; orders: string }>(
      db,
      sql`select sum(l.amount_ore) as sales, count(distinct l.order_id) filter (where o.state <> 'cancelled') as orders
          from order_lines l join orders o on o.id = l.order_id where o.membership_id = ${elsa6B.id}`,
    );
    expect(own.sales_ore).toBe(Number(lines!.sales));
    expect(own.orders_count).toBe(Number(lines!.orders));
    const detail = await getJson<TAdminGroupDetailResponse>(`/api/admin/group/${groupId6B}`);
    const elsa = detail.sellers.find((seller) => seller.user_id === elsa6B.userId)!;
    expect(elsa).toMatchObject({
      total_sales: oreToSek(own.sales_ore),
      total_commission: oreToSek(own.commission_ore),
      orders_count: own.orders_count,
    });
    const allOrders = await sqlRows(db, sql`select id from orders where membership_id = ${elsa6B.id}`);
    expect(elsa.orders_count).toBe(allOrders.length - 1);
  });

  it('limits sums to orders placed on the given Stockholm days, across the summer-time change', async () => {
    const db = server.app.db;
    const from = '2025-03-30';
    const to = '2025-03-30';
    const sellers = await getJson<TAdminSellerListResponse>(`/api/admin/sellers?from=${from}&to=${to}&limit=500`);
    const overview = await getJson<TAdminOverviewResponse>(`/api/admin/overview?from=${from}&to=${to}`);
    const day = await figuresFromOrders(
      db,
      sql`group_id is not null and (ordered_at at time zone 'Europe/Stockholm')::date between ${from}::date and ${to}::date`,
    );
    expect(day.sales_ore).toBe(10050 + 333);
    expect(overview.total_sales).toBe(oreToSek(day.sales_ore));
    expect(overview.orders_count).toBe(2);
    expect(overview.unattributed_orders).toBe(2);
    expect(sumSek(sellers.items.map((seller) => seller.total_sales))).toBe(overview.total_sales);
    // The date narrows the figures, not the rows: every seller is still listed.
    expect(sellers.total).toBe(overview.sellers_total);
    expect(sellers.items.filter((seller) => seller.orders_count > 0)).toHaveLength(1);
  });
});

describe('GET /api/admin/sellers', () => {
  it('sorts by the asked figure, highest first, and pages with an exact total and no overlap', async () => {
    for (const sort of ['total_sales', 'total_commission', 'orders_count'] as const) {
      const all = await getJson<TAdminSellerListResponse>(`/api/admin/sellers?sort=${sort}&limit=500`);
      const figures = all.items.map((seller) => seller[sort]);
      expect(figures).toEqual([...figures].sort((a, b) => b - a));
      const pages: TAdminSellerListResponse[] = [];
      for (let offset = 0; offset < all.total; offset += 7) {
        pages.push(await getJson<TAdminSellerListResponse>(`/api/admin/sellers?sort=${sort}&limit=7&offset=${offset}`));
      }
      expect(pages.every((page) => page.total === all.total && page.limit === 7)).toBe(true);
      expect(pages.flatMap((page) => page.items)).toEqual(all.items);
    }
    const beyond = await getJson<TAdminSellerListResponse>('/api/admin/sellers?offset=10000');
    expect(beyond.items).toEqual([]);
    expect(beyond.total).toBeGreaterThan(30);
  });

  it('defaults to 50 a page and refuses more than 500', async () => {
    const page = await getJson<TAdminSellerListResponse>('/api/admin/sellers');
    expect(page.limit).toBe(50);
    expect(page.items.length).toBeLessThanOrEqual(50);
    const tooMany = await server.request('GET', '/api/admin/sellers?limit=501', { token: adminToken });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: { message: string } }).error.message).toBe('Högst 500 per sida');
  });

  it('filters on active or archived groups, and on one group; marks admins and inactive groups', async () => {
    const archived = await getJson<TAdminSellerListResponse>('/api/admin/sellers?status=archived&limit=500');
    const active = await getJson<TAdminSellerListResponse>('/api/admin/sellers?status=active&limit=500');
    const all = await getJson<TAdminSellerListResponse>('/api/admin/sellers?status=all&limit=500');
    const [counts] = await sqlRows<{ archived: string }>(
      server.app.db,
      sql`select count(*) as archived from memberships m join groups g on g.id = m.group_id where g.archived`,
    );
    expect(archived.total).toBe(Number(counts!.archived));
    expect(archived.items.every((seller) => !seller.is_active && seller.group_name === 'Klass 9A Ekskolan')).toBe(true);
    expect(active.items.every((seller) => seller.is_active)).toBe(true);
    expect(active.total + archived.total).toBe(all.total);
    const admins = all.items.filter((seller) => seller.is_admin);
    expect(admins.every((seller) => seller.role === 'admin')).toBe(true);
    expect(admins.map((seller) => seller.full_name)).toContain('Karin Lärare');
    const oneGroup = await getJson<TAdminSellerListResponse>(`/api/admin/sellers?group_id=${groupId6B}&status=all&sort=total_sales`);
    expect(new Set(oneGroup.items.map((seller) => seller.group_id))).toEqual(new Set([groupId6B]));
    const archivedFilterOnActiveGroup = await getJson<TAdminSellerListResponse>(`/api/admin/sellers?group_id=${groupId6B}&status=archived`);
    expect(archivedFilterOnActiveGroup).toMatchObject({ items: [], total: 0 });
    // An empty field from a form means "not given".
    const blank = await getJson<TAdminSellerListResponse>('/api/admin/sellers?from=&to=&group_id=&status=&sort=&limit=500');
    expect(blank.items).toEqual(all.items);
  });

  it('refuses a bad filter with a Swedish 400', async () => {
    for (const [query, message] of [
      ['from=2025-05-02&to=2025-05-01', 'Från-datum kan inte vara efter Till-datum.'],
      ['from=2025-02-30', 'Ogiltigt datum'],
      ['from=igår', 'Ange datum som ÅÅÅÅ-MM-DD'],
      ['sort=sales', 'Ogiltig sortering'],
      ['status=borta', 'Ogiltig status'],
      ['group_id=abc', 'Ogiltigt id'],
      ['offset=-1', 'Ogiltig startposition'],
    ]) {
      const response = await server.request('GET', `/api/admin/sellers?${query}`, { token: adminToken });
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message, query).toBe(message);
    }
  });
});

describe('GET /api/admin/seller/{userId}/orders', () => {
  it("lists one seller's orders in a group, newest first, with a summary over all of them", async () => {
    const db = server.app.db;
    const answer = await getJson<TAdminSellerOrdersResponse>(`/api/admin/seller/${elsa6B.userId}/orders?group_id=${groupId6B}&limit=500`);
    const own = await figuresFromOrders(db, sql`membership_id = ${elsa6B.id}`);
    const ids = await sqlRows<{ id: string }>(
      db,
      sql`select id from orders where membership_id = ${elsa6B.id} order by ordered_at desc, id desc`,
    );
    expect(answer.seller).toEqual({
      user_id: elsa6B.userId,
      full_name: 'Elsa Andersson',
      email: 'elsa@demo.se',
      role: 'seller',
      is_admin: false,
      group_id: groupId6B,
      group_name: 'Klass 6B Björkskolan',
      orders_count: own.orders_count,
      total_sales: oreToSek(own.sales_ore),
      total_commission: oreToSek(own.commission_ore),
    });
    expect(answer.total).toBe(ids.length);
    expect(answer.items.map((order) => order.order_id)).toEqual(ids.map((row) => Number(row.id)));
    expect(sumSek(answer.items.map((order) => order.subtotal_incl_vat))).toBe(answer.seller.total_sales);
    const cancelled = answer.items.find((order) => order.state === 'cancelled')!;
    expect(cancelled).toMatchObject({ subtotal_incl_vat: 0, commission_total: 0, group_id: groupId6B });
    expect(cancelled.ordered_at).toBe('2025-06-01T10:00:00.000Z');
    const [first] = answer.items;
    expect(first).toEqual({
      order_id: expect.any(Number),
      shopify_order_id: expect.stringMatching(/^\d+$/),
      order_name: expect.stringMatching(/^#/),
      ordered_at: expect.any(String),
      created_at: expect.any(String),
      subtotal_incl_vat: expect.any(Number),
      commission_total: expect.any(Number),
      state: 'paid',
      group_id: groupId6B,
    });
  });

  it('spans all the seller’s groups without group_id, and pages', async () => {
    const everywhere = await getJson<TAdminSellerOrdersResponse>(`/api/admin/seller/${elsa6B.userId}/orders?limit=500`);
    const both = await figuresFromOrders(
      server.app.db,
      sql`membership_id in (select id from memberships where user_id = ${elsa6B.userId})`,
    );
    expect(everywhere.seller).toMatchObject({ role: null, group_id: null, group_name: null, total_sales: oreToSek(both.sales_ore) });
    expect(new Set(everywhere.items.map((order) => order.group_id)).size).toBe(2);
    const page = await getJson<TAdminSellerOrdersResponse>(`/api/admin/seller/${elsa6B.userId}/orders?limit=3&offset=3`);
    expect(page.items).toEqual(everywhere.items.slice(3, 6));
    expect(page.total).toBe(everywhere.total);
  });

  it('answers 404 for an unknown user and for a user outside the group', async () => {
    const unknown = await server.request('GET', '/api/admin/seller/999999/orders', { token: adminToken });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe('Säljaren hittades inte');
    const scouts = await groupIdByCode(server.app.db, 'SCT482');
    const outside = await server.request('GET', `/api/admin/seller/${elsa6B.userId}/orders?group_id=${scouts}`, { token: adminToken });
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { error: { message: string } }).error.message).toBe('Säljaren finns inte i gruppen');
  });
});
