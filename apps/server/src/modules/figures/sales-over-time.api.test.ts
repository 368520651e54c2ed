import { getISOWeek, getISOWeekYear } from 'date-fns';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSalesPerDayResponse, TSalesPerWeekResponse } from '@saljportalen/contract';
import { groupIdByCode, insertOrder, sqlRows, sumSek } from '../../../test/admin-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { isoWeekMonday, stockholmDate, stockholmDayStart } from '../../lib/dates.js';

/**
 * Issue 20, point 7: sales per Stockholm day of one class and per ISO week of every group, checked
 * against the orders themselves, bucketed by Intl's own reading of Stockholm time (not by the
 * server's SQL), with the day boundaries of both daylight-saving changes.
 */
let server: TestServer;
const tokens: Record<string, string> = {};

/** The independent side: the Stockholm calendar day of an instant, as ICU's tz data reads it. */
const stockholmDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit' });
const dayOf = (instant: Date | string) => stockholmDay.format(new Date(instant));

async function ordersOf(where: ReturnType<typeof sql>) {
  const rows = await sqlRows<{
    ordered_at: string | Date;
    subtotal_ore: string | number;
    commission_ore: string | number;
    state: string;
    group_id: number | null;
  }>(server.app.db, sql`select ordered_at, subtotal_ore, commission_ore, state, group_id from orders where ${where}`);
  return rows.map((row) => ({
    day: dayOf(row.ordered_at),
    ore: Number(row.subtotal_ore),
    commissionOre: Number(row.commission_ore),
    counted: row.state !== 'cancelled',
    group: row.group_id,
  }));
}

async function get<T>(path: string, token: string | undefined): Promise<{ status: number; body: T }> {
  const response = await server.request('GET', path, { token });
  return { status: response.status, body: (await response.json()) as T };
}

/** A group of its own with a fixed creation day and goal, and a member who sells for it. */
async function campaignGroup(options: { code: string; createdAt: string; goalOre?: number; endsOn?: string }) {
  const [group] = await sqlRows<{ id: number }>(
    server.app.db,
    sql`insert into groups (name, code, created_at, goal_ore, goal_purpose, goal_ends_on)
        values (${`Klass ${options.code}`}, ${options.code}, ${options.createdAt}, ${options.goalOre ?? null},
                ${options.goalOre ? 'Klassresa till Liseberg' : null}, ${options.endsOn ?? null})
        returning id`,
  );
  const groupId = Number(group!.id);
  const [membership] = await sqlRows<{ id: number }>(
    server.app.db,
    sql`insert into memberships (user_id, group_id, role, link_code)
        select id, ${groupId}, 'seller', ${`L${options.code}`} from users where email = 'elsa@demo.se' returning id`,
  );
  return { groupId, membership: { id: Number(membership!.id), groupId } };
}

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  for (const email of ['noah@demo.se', 'larare@bjorkskolan.se', 'ledare@tallen.se', 'admin@saljportalen.se', 'elsa@demo.se'])
    tokens[email] = await server.login(email);
});
afterAll(() => server.close());

describe('GET /api/group/sales-per-day', () => {
  it("gives a member the class's sales and commission per day, every day of the campaign, adding up to the orders", async () => {
    const groupId = await groupIdByCode(server.app.db, 'BJK6B2');
    for (const email of ['noah@demo.se', 'larare@bjorkskolan.se']) {
      const { status, body } = await get<TSalesPerDayResponse>(`/api/group/sales-per-day?group_id=${groupId}`, tokens[email]);
      expect(status).toBe(200);
      const orders = await ordersOf(sql`group_id = ${groupId}`);
      const expected = new Map<string, { ore: number; commissionOre: number; count: number }>();
      for (const order of orders) {
        const day = expected.get(order.day) ?? { ore: 0, commissionOre: 0, count: 0 };
        expected.set(order.day, {
          ore: day.ore + order.ore,
          commissionOre: day.commissionOre + order.commissionOre,
          count: day.count + (order.counted ? 1 : 0),
        });
      }
      expect(orders.length).toBeGreaterThan(0);
      expect(body.to).toBe(stockholmDate(new Date()));
      expect(body.earlier_sales).toBe(0);
      expect(body.earlier_commission).toBe(0);
      // Every day once, in order, with no gap.
      expect(body.days.map((day) => day.date)).toEqual([...new Set(body.days.map((day) => day.date))].sort());
      expect(body.days[0]!.date).toBe(body.from);
      expect(body.days.at(-1)!.date).toBe(body.to);
      for (const day of body.days) {
        const want = expected.get(day.date) ?? { ore: 0, commissionOre: 0, count: 0 };
        // The day's commission is the orders' own commission_ore, net as the sales are.
        expect([day.date, Math.round(day.sales * 100), Math.round(day.commission * 100), day.orders_count]).toEqual([
          day.date,
          want.ore,
          want.commissionOre,
          want.count,
        ]);
      }
      const totalOre = orders.reduce((sum, order) => sum + order.ore, 0);
      const totalCommissionOre = orders.reduce((sum, order) => sum + order.commissionOre, 0);
      expect(totalCommissionOre).toBeGreaterThan(0);
      expect(Math.round(sumSek(body.days.map((day) => day.sales)) * 100)).toBe(totalOre);
      expect(Math.round(body.total_sales * 100)).toBe(totalOre);
      expect(Math.round(sumSek(body.days.map((day) => day.commission)) * 100)).toBe(totalCommissionOre);
      expect(Math.round(body.total_commission * 100)).toBe(totalCommissionOre);
      // The same commission the totals (the goal's progress bar) and the weekly summary measure the goal in.
      const totals = (await get<{ totals: { total_commission: number } }>('/api/group/totals', tokens[email])).body;
      expect(body.total_commission).toBe(totals.totals.total_commission);
    }
  });

  it('counts an order on its Stockholm day across the night summer time starts, net of refunds, cancelled orders not counted', async () => {
    const { groupId, membership } = await campaignGroup({
      code: 'SOMMAR',
      createdAt: '2026-03-20T10:00:00Z',
      goalOre: 500_000,
      endsOn: '2026-04-05',
    });
    const at = (iso: string, amountOre: number, extra: Partial<Parameters<typeof insertOrder>[1]> = {}) =>
      insertOrder(server.app.db, { membership, orderedAt: new Date(iso), lines: [{ amountOre }], ...extra });
    await at('2026-03-28T22:59:59Z', 10_000); // 23:59:59 CET, 28 March
    await at('2026-03-28T23:00:00Z', 20_000); // 00:00 CET, 29 March (the night summer time starts)
    await at('2026-03-29T21:59:59Z', 30_000); // 23:59:59 CEST, 29 March
    await at('2026-03-29T22:00:00Z', 40_000); // 00:00 CEST, 30 March
    await insertOrder(server.app.db, {
      membership,
      orderedAt: new Date('2026-03-30T08:00:00Z'),
      state: 'partially_refunded',
      lines: [{ amountOre: 24_900 }, { amountOre: -9_900, kind: 'refund', bookedAt: new Date('2026-04-02T08:00:00Z') }],
    });
    await at('2026-03-31T08:00:00Z', 0, {
      state: 'cancelled',
      lines: [{ amountOre: 14_900 }, { amountOre: -14_900, kind: 'cancellation' }],
    });

    const { status, body } = await get<TSalesPerDayResponse>(`/api/group/sales-per-day?group_id=${groupId}`, tokens['elsa@demo.se']);
    expect(status).toBe(200);
    // From its creation to the goal's end (in the past), the goal in SEK.
    expect(body).toMatchObject({
      group_id: groupId,
      from: '2026-03-20',
      to: '2026-04-05',
      ends_on: '2026-04-05',
      goal: 5000,
      earlier_sales: 0,
    });
    expect(body.days).toHaveLength(17);
    const byDay = Object.fromEntries(body.days.filter((day) => day.sales !== 0 || day.orders_count !== 0).map((day) => [day.date, day]));
    expect(byDay).toEqual({
      '2026-03-28': { date: '2026-03-28', sales: 100, commission: 25, orders_count: 1 },
      '2026-03-29': { date: '2026-03-29', sales: 500, commission: 125, orders_count: 2 },
      // The refund's commission comes off the order's own day, as its amount does.
      '2026-03-30': { date: '2026-03-30', sales: 550, commission: 137.5, orders_count: 2 },
    });
    expect(body.total_sales).toBe(1150);
    expect(body.total_commission).toBe(287.5);
    expect(body.earlier_commission).toBe(0);

    // An order after the goal's end still shows: the days run on to it, and add up to the total.
    await at('2026-04-10T09:00:00Z', 5_000);
    const later = await get<TSalesPerDayResponse>(`/api/group/sales-per-day?group_id=${groupId}`, tokens['elsa@demo.se']);
    expect(later.body).toMatchObject({ from: '2026-03-20', to: '2026-04-10', total_sales: 1200, total_commission: 300 });
    expect(sumSek(later.body.days.map((day) => day.sales))).toBe(1200);
    expect(sumSek(later.body.days.map((day) => day.commission))).toBe(300);
  });

  it('starts at the first order when that is before the creation, and cuts a long campaign to its last 366 days with what sold before', async () => {
    const { groupId, membership } = await campaignGroup({ code: 'LANG01', createdAt: '2025-09-01T10:00:00Z' });
    await insertOrder(server.app.db, { membership, orderedAt: new Date('2024-05-02T10:00:00Z'), lines: [{ amountOre: 12_300 }] });
    await insertOrder(server.app.db, { membership, orderedAt: new Date(Date.now() - 3_600_000), lines: [{ amountOre: 4_500 }] });
    const { body } = await get<TSalesPerDayResponse>(`/api/group/sales-per-day?group_id=${groupId}`, tokens['elsa@demo.se']);
    expect(body.days).toHaveLength(366);
    expect(body.to).toBe(stockholmDate(new Date()));
    expect(body.earlier_sales).toBe(123);
    expect(body.total_sales).toBe(168);
    expect(sumSek([body.earlier_sales, ...body.days.map((day) => day.sales)])).toBe(168);
    expect(body.earlier_commission).toBe(30.75);
    expect(body.total_commission).toBe(42);
    expect(sumSek([body.earlier_commission, ...body.days.map((day) => day.commission)])).toBe(42);
    expect(body.goal).toBeNull();
    expect(body.ends_on).toBeNull();

    const fresh = await campaignGroup({ code: 'NY0001', createdAt: new Date().toISOString() });
    const empty = await get<TSalesPerDayResponse>(`/api/group/sales-per-day?group_id=${fresh.groupId}`, tokens['elsa@demo.se']);
    expect(empty.body.days).toEqual([{ date: stockholmDate(new Date()), sales: 0, commission: 0, orders_count: 0 }]);
  });

  it('is refused to everyone who is not a member of the group, and bad input is a Swedish 400', async () => {
    const groupId = await groupIdByCode(server.app.db, 'BJK6B2');
    expect((await get(`/api/group/sales-per-day?group_id=${groupId}`, undefined)).status).toBe(401);
    for (const email of ['ledare@tallen.se', 'admin@saljportalen.se']) {
      const refused = await get<{ error: { code: string; message: string } }>(
        `/api/group/sales-per-day?group_id=${groupId}`,
        tokens[email],
      );
      expect(refused).toEqual({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'Du är inte med i den här gruppen' } } });
    }
    // A group that does not exist is refused like another's: the answer tells nothing about it.
    expect((await get('/api/group/sales-per-day?group_id=2147483647', tokens['noah@demo.se'])).status).toBe(403);
    for (const [query, message] of [
      ['', 'Ange en grupp'],
      ['?group_id=abc', 'Ogiltig grupp'],
      ['?group_id=0', 'Ogiltig grupp'],
      ['?group_id=1.5', 'Ogiltig grupp'],
      ['?group_id=99999999999', 'Ogiltig grupp'],
    ]) {
      const bad = await get<{ error: { code: string; message: string } }>(`/api/group/sales-per-day${query}`, tokens['noah@demo.se']);
      expect([query, bad.status, bad.body.error.message]).toEqual([query, 400, message]);
    }
  });
});

describe('GET /api/admin/groups/:id/sales-per-day', () => {
  it('gives the superadmin any group the same answer its members get, 404 for none, 400 for a bad id', async () => {
    const groupId = await groupIdByCode(server.app.db, 'BJK6B2');
    const admin = await get<TSalesPerDayResponse>(`/api/admin/groups/${groupId}/sales-per-day`, tokens['admin@saljportalen.se']);
    const member = await get<TSalesPerDayResponse>(`/api/group/sales-per-day?group_id=${groupId}`, tokens['noah@demo.se']);
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual(member.body);
    for (const email of ['noah@demo.se', 'larare@bjorkskolan.se']) {
      expect((await get(`/api/admin/groups/${groupId}/sales-per-day`, tokens[email])).status).toBe(403);
    }
    const missing = await get<{ error: { message: string } }>(
      '/api/admin/groups/2147483647/sales-per-day',
      tokens['admin@saljportalen.se'],
    );
    expect([missing.status, missing.body.error.message]).toEqual([404, 'Grupp hittades inte']);
    const bad = await get<{ error: { message: string } }>('/api/admin/groups/abc/sales-per-day', tokens['admin@saljportalen.se']);
    expect([bad.status, bad.body.error.message]).toEqual([400, 'Ogiltigt id']);
  });
});

describe('GET /api/admin/overview/sales-per-week', () => {
  it("sums every group's orders per ISO week of Stockholm days, this week last, unattributed orders left out", async () => {
    const { membership } = await campaignGroup({ code: 'VECKA1', createdAt: '2026-01-01T10:00:00Z' });
    const monday = isoWeekMonday(stockholmDate(new Date()));
    // The last second of last week's Sunday and the first of this Monday, in Stockholm.
    await insertOrder(server.app.db, {
      membership,
      orderedAt: new Date(stockholmDayStart(monday).getTime() - 1000),
      lines: [{ amountOre: 7_700 }],
    });
    await insertOrder(server.app.db, { membership, orderedAt: stockholmDayStart(monday), lines: [{ amountOre: 8_800 }] });
    await insertOrder(server.app.db, { membership: null, orderedAt: stockholmDayStart(monday), lines: [{ amountOre: 99_900 }] });

    const { status, body } = await get<TSalesPerWeekResponse>(
      '/api/admin/overview/sales-per-week?weeks=30',
      tokens['admin@saljportalen.se'],
    );
    expect(status).toBe(200);
    expect(body.weeks).toHaveLength(30);
    expect(body.weeks.at(-1)!.starts_on).toBe(monday);

    const weekOf = (day: string) => {
      const noon = new Date(`${day}T12:00:00`);
      return `${getISOWeekYear(noon)}-W${String(getISOWeek(noon)).padStart(2, '0')}`;
    };
    const orders = (await ordersOf(sql`group_id is not null`)).filter((order) => order.day >= body.weeks[0]!.starts_on);
    for (const week of body.weeks) {
      const inWeek = orders.filter((order) => weekOf(order.day) === week.week);
      expect(weekOf(week.starts_on)).toBe(week.week);
      expect([week.week, Math.round(week.sales * 100), Math.round(week.commission * 100), week.orders_count, week.groups_count]).toEqual([
        week.week,
        inWeek.reduce((sum, order) => sum + order.ore, 0),
        inWeek.reduce((sum, order) => sum + order.commissionOre, 0),
        inWeek.filter((order) => order.counted).length,
        new Set(inWeek.map((order) => order.group)).size,
      ]);
    }
    expect(body.weeks.at(-2)!.sales).toBeGreaterThanOrEqual(77);
    expect(body.weeks.at(-1)!.sales).toBeGreaterThanOrEqual(88);
    expect(body.weeks.at(-1)!.commission).toBeGreaterThanOrEqual(22);
  });

  it('shows 26 weeks unless asked, refuses other roles, and bad input is a Swedish 400', async () => {
    const standard = await get<TSalesPerWeekResponse>('/api/admin/overview/sales-per-week', tokens['admin@saljportalen.se']);
    expect(standard.body.weeks).toHaveLength(26);
    for (const email of ['noah@demo.se', 'larare@bjorkskolan.se']) {
      expect((await get('/api/admin/overview/sales-per-week', tokens[email])).status).toBe(403);
    }
    expect((await get('/api/admin/overview/sales-per-week', undefined)).status).toBe(401);
    for (const [weeks, message] of [
      ['0', 'Ogiltigt antal veckor'],
      ['x', 'Ogiltigt antal veckor'],
      ['1e1', 'Ogiltigt antal veckor'],
      ['105', 'Högst 104 veckor'],
    ]) {
      const bad = await get<{ error: { message: string } }>(
        `/api/admin/overview/sales-per-week?weeks=${weeks}`,
        tokens['admin@saljportalen.se'],
      );
      expect([weeks, bad.status, bad.body.error.message]).toEqual([weeks, 400, message]);
    }
  });
});
