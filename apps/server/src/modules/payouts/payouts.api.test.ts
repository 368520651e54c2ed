import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCreatePayoutResponse, TPayout } from '@saljportalen/contract';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { groupPayoutAccounts, groups, memberships, orderLines, orders, users } from '../../db/schema.js';
import { sqlRows } from '../../../test/admin-fixtures.js';

let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
  adminToken = await server.login('admin@saljportalen.se');
});
afterAll(() => server.close());

// ---------------------------------------------------------------------------------------------
// Fixtures written straight into the tables, and figures read straight back with SQL, so that
// what the API answers is checked against numbers it did not compute itself.

async function rows<T>(query: SQL): Promise<T[]> {
  return sqlRows<T>(server.app.db, query);
}

let nextShopifyOrderId = 9_100_000_000_000;

async function createGroup(name = `Testgrupp ${crypto.randomUUID().slice(0, 8)}`) {
  const [group] = await server.app.db
    .insert(groups)
    .values({ name, code: crypto.randomBytes(4).toString('hex').toUpperCase() })
    .returning({ id: groups.id });
  // Every group here has somewhere to be paid (payout-account.api.test.ts tests one without).
  await server.app.db
    .insert(groupPayoutAccounts)
    .values({ groupId: group!.id, kind: 'bankgiro', accountNumber: '99912347', holderName: 'Testskolan' });
  return group!.id;
}

async function addSeller(groupId: number, fullName: string) {
  const [user] = await server.app.db
    .insert(users)
    .values({ email: `${crypto.randomUUID()}@test.se`, passwordHash: 'ingen-inloggning', fullName })
    .returning({ id: users.id });
  const [membership] = await server.app.db
    .insert(memberships)
    .values({ userId: user!.id, groupId, linkCode: crypto.randomBytes(6).toString('hex') })
    .returning({ id: memberships.id });
  return membership!.id;
}

interface LineFixture {
  amountOre: number;
  commissionOre: number;
  kind?: 'sale' | 'refund' | 'cancellation';
  title?: string;
  /** Defaults to the order's time. */
  bookedAt?: string;
}

/** One order with its lines; times are UTC instants written out by hand. */
async function addOrder(groupId: number, membershipId: number, orderedAt: string, lines: LineFixture[], orderName?: string) {
  const shopifyOrderId = nextShopifyOrderId++;
  const [order] = await server.app.db
    .insert(orders)
    .values({
      shopifyOrderId: String(shopifyOrderId),
      orderName: orderName ?? `#T${shopifyOrderId % 100_000}`,
      orderedAt: new Date(orderedAt),
      membershipId,
      groupId,
      subtotalOre: lines.reduce((sum, line) => sum + line.amountOre, 0),
      commissionOre: lines.reduce((sum, line) => sum + line.commissionOre, 0),
      state: 'paid',
    })
    .returning({ id: orders.id });
  await addLines(order!.id, groupId, membershipId, orderedAt, lines);
  return order!.id;
}

async function addLines(orderId: number, groupId: number, membershipId: number, orderedAt: string, lines: LineFixture[]) {
  await server.app.db.insert(orderLines).values(
    lines.map((line, index) => ({
      orderId,
      kind: line.kind ?? 'sale',
      shopifyLineId: `${orderId}${index}${Math.floor(Math.random() * 1e6)}`,
      title: line.title ?? 'Bivaxdukar 3-pack',
      quantity: 1,
      amountOre: line.amountOre,
      commissionOre: line.commissionOre,
      groupId,
      membershipId,
      bookedAt: new Date(line.bookedAt ?? orderedAt),
    })),
  );
}

async function createPayoutRequest(body: Record<string, unknown>) {
  const response = await server.request('POST', '/api/admin/payouts', { token: adminToken, body: { auto_archive: false, ...body } });
  return {
    status: response.status,
    body: (await response.json()) as TCreatePayoutResponse & { error?: { code: string; message: string } },
  };
}

async function listPayouts(query = '') {
  const response = await server.request('GET', `/api/admin/payouts${query}`, { token: adminToken });
  expect(response.status).toBe(200);
  return (await response.json()) as TPayout[];
}

/** Per payout of the group: its stored figures beside the figures of the lines that point at it. */
async function payoutsAgainstTheirLines(groupId: number) {
  return rows<{ id: number; stored: string; from_lines: string }>(sql`
    select p.id,
           concat_ws('/', p.orders_count, p.lines_count, p.sales_ore, p.commission_ore) as stored,
           -- An order counts in the payout that takes its sale, unless it also takes its cancellation (ordersCountedInPayout).
           concat_ws('/', count(distinct l.order_id) filter (where l.kind = 'sale' and not exists (
             select 1 from order_lines c where c.payout_id = p.id and c.order_id = l.order_id and c.kind = 'cancellation')),
                     count(l.id), coalesce(sum(l.amount_ore), 0), coalesce(sum(l.commission_ore), 0)) as from_lines
    from payouts p left join order_lines l on l.payout_id = p.id
    where p.group_id = ${groupId}
    group by p.id order by p.id`);
}

async function groupCommissionOre(groupId: number) {
  const [figures] = await rows<{ lines: string; settled: string; payouts: string }>(sql`
    select (select coalesce(sum(commission_ore), 0) from order_lines where group_id = ${groupId})::text as lines,
           (select coalesce(sum(commission_ore), 0) from order_lines where group_id = ${groupId} and payout_id is not null)::text as settled,
           (select coalesce(sum(commission_ore), 0) from payouts where group_id = ${groupId})::text as payouts`);
  return { lines: Number(figures!.lines), settled: Number(figures!.settled), payouts: Number(figures!.payouts) };
}

// ---------------------------------------------------------------------------------------------

describe('who may use the payouts calls', () => {
  const calls = [
    ['GET', '/api/admin/payouts', undefined],
    ['POST', '/api/admin/payouts', { group_id: 1, from: '2025-01-01', to: '2025-01-31', auto_archive: false }],
    ['PATCH', '/api/admin/payouts/2', { status: 'paid' }],
    ['GET', '/api/admin/payouts/1/export.pdf', undefined],
  ] as const;

  it('answers 401 to a guest and 403 to a seller and a group admin, and changes nothing', async () => {
    const before = await rows<{ payouts: number; paid: number; archived: number }>(
      sql`select (select count(*)::int from payouts) as payouts, (select count(*)::int from payouts where status = 'paid') as paid, (select count(*)::int from groups where archived) as archived`,
    );
    const sellerToken = await server.login('elsa@demo.se');
    const groupAdminToken = await server.login('larare@bjorkskolan.se');
    for (const [method, url, body] of calls) {
      const guest = await server.request(method, url, { body });
      expect(guest.status, `${method} ${url} som gäst`).toBe(401);
      expect(((await guest.json()) as { error: { message: string } }).error.message).toMatch(/inloggad/);
      for (const token of [sellerToken, groupAdminToken]) {
        const refused = await server.request(method, url, { token, body });
        expect(refused.status, `${method} ${url}`).toBe(403);
        expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
      }
    }
    const after = await rows(
      sql`select (select count(*)::int from payouts) as payouts, (select count(*)::int from payouts where status = 'paid') as paid, (select count(*)::int from groups where archived) as archived`,
    );
    expect(after).toEqual(before);
  });
});

describe('creating a payout: validation', () => {
  it('refuses from after to with the spec §5 message', async () => {
    const { status, body } = await createPayoutRequest({ group_id: 1, from: '2025-02-01', to: '2025-01-31' });
    expect(status).toBe(400);
    expect(body.error!.message).toBe('Från-datum kan inte vara efter Till-datum.');
  });

  it('asks for every field when one is missing or empty', async () => {
    for (const body of [{}, { group_id: '', from: '', to: '' }, { group_id: 1, from: '2025-01-01' }]) {
      const response = await server.request('POST', '/api/admin/payouts', { token: adminToken, body });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe('Fyll i alla fält för avräkningen');
    }
  });

  it('refuses days that do not exist and nonsense ids with a Swedish 400, never a 500', async () => {
    const cases = [
      await createPayoutRequest({ group_id: 1, from: '2025-02-30', to: '2025-03-31' }),
      await createPayoutRequest({ group_id: 'abc', from: '2025-01-01', to: '2025-01-31' }),
      await createPayoutRequest({ group_id: 99_999_999_999, from: '2025-01-01', to: '2025-01-31' }),
      await createPayoutRequest({ group_id: 1, from: "2025-01-01'; drop table payouts; --", to: '2025-01-31' }),
    ];
    expect(cases.map((c) => c.status)).toEqual([400, 400, 400, 400]);
    expect(cases.map((c) => c.body.error!.message)).toEqual([
      'Ogiltigt datum',
      'Ogiltig grupp',
      'Ogiltig grupp',
      'Ange datum som ÅÅÅÅ-MM-DD',
    ]);
  });

  it('answers 404 for a group that does not exist', async () => {
    const { status, body } = await createPayoutRequest({ group_id: 2_000_000_000, from: '2025-01-01', to: '2025-01-31' });
    expect(status).toBe(404);
    expect(body.error).toEqual({ code: 'NOT_FOUND', message: 'Gruppen finns inte' });
  });
});

describe('creating a payout: what gets settled', () => {
  it('says no_orders_in_range when nothing was booked, no_items_unpaid when all of it is settled', async () => {
    const groupId = await createGroup();
    const seller = await addSeller(groupId, 'Ture Test');
    await addOrder(groupId, seller, '2025-05-10T10:00:00Z', [{ amountOre: 14_900, commissionOre: 3_725 }]);

    const empty = await createPayoutRequest({ group_id: groupId, from: '2025-06-01', to: '2025-06-30' });
    expect(empty).toEqual({
      status: 200,
      body: { ok: true, created: false, id: null, amount: 0, auto_archived: false, raw: { reason: 'no_orders_in_range' } },
    });
    const first = await createPayoutRequest({ group_id: groupId, from: '2025-05-01', to: '2025-05-31' });
    // 37,25 kr of commission; the payout pays 37 kr (öresavrundning).
    expect(first.body).toMatchObject({ ok: true, created: true, amount: 37, raw: { reason: null } });
    const again = await createPayoutRequest({ group_id: groupId, from: '2025-05-01', to: '2025-05-31' });
    expect(again.body).toEqual({ ok: true, created: false, id: null, amount: 0, auto_archived: false, raw: { reason: 'no_items_unpaid' } });
  });

  it('of 20 simultaneous requests for the same group and period exactly one settles, the rest say no_items_unpaid', async () => {
    const groupId = await createGroup();
    const sellers = [await addSeller(groupId, 'Agnes Ek'), await addSeller(groupId, 'Björn Al')];
    for (let day = 1; day <= 28; day++) {
      const at = `2025-02-${String(day).padStart(2, '0')}T12:00:00Z`;
      await addOrder(groupId, sellers[day % 2]!, at, [
        { amountOre: 11_900 + day, commissionOre: 2_975 + day },
        { amountOre: 6_900, commissionOre: 1_725 },
      ]);
    }

    const answers = await Promise.all(
      Array.from({ length: 20 }, () => createPayoutRequest({ group_id: groupId, from: '2025-02-01', to: '2025-02-28' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const created = answers.filter((a) => a.body.created);
    expect(created).toHaveLength(1);
    expect(answers.filter((a) => !a.body.created).map((a) => a.body.raw.reason)).toEqual(Array(19).fill('no_items_unpaid'));

    const [settled] = await rows<{ payouts: number; lines: number; unsettled: number; commission: string }>(sql`
      select (select count(*)::int from payouts where group_id = ${groupId}) as payouts,
             (select count(*)::int from order_lines where group_id = ${groupId} and payout_id = ${created[0]!.body.id}) as lines,
             (select count(*)::int from order_lines where group_id = ${groupId} and payout_id is null) as unsettled,
             (select sum(commission_ore)::text from order_lines where group_id = ${groupId}) as commission`);
    expect(settled).toEqual({ payouts: 1, lines: 56, unsettled: 0, commission: expect.any(String) });
    expect(created[0]!.body.amount).toBe(Math.round(Number(settled!.commission) / 100));
    const [check] = await payoutsAgainstTheirLines(groupId);
    expect(check!.stored).toBe(check!.from_lines);
  });

  it('never settles a line twice, also when overlapping periods are created at the same moment', async () => {
    const groupId = await createGroup();
    const seller = await addSeller(groupId, 'Cilla Lönn');
    for (let day = 1; day <= 30; day++) {
      await addOrder(groupId, seller, `2025-04-${String(day).padStart(2, '0')}T09:00:00Z`, [
        { amountOre: 10_000 + day * 100, commissionOre: 2_500 + day * 25 },
      ]);
    }
    const periods = [
      ['2025-04-01', '2025-04-15'],
      ['2025-04-10', '2025-04-20'],
      ['2025-04-05', '2025-04-30'],
      ['2025-04-14', '2025-04-14'],
      ['2025-03-01', '2025-04-12'],
      ['2025-04-18', '2025-05-31'],
    ];
    const answers = await Promise.all([...periods, ...periods].map(([from, to]) => createPayoutRequest({ group_id: groupId, from, to })));
    expect(answers.every((a) => a.status === 200)).toBe(true);

    // Each payout's stored figures are exactly those of the lines pointing at it: no line is
    // counted in a second payout, and every line sits in a payout whose period holds its date.
    for (const payout of await payoutsAgainstTheirLines(groupId)) expect(payout.stored).toBe(payout.from_lines);
    const outsideTheirPeriod = await rows(sql`
      select l.id from order_lines l join payouts p on p.id = l.payout_id
      where l.group_id = ${groupId}
        and not ((l.booked_at at time zone 'Europe/Stockholm')::date between p.period_from and p.period_to)`);
    expect(outsideTheirPeriod).toEqual([]);
    const totals = await groupCommissionOre(groupId);
    expect(totals.payouts).toBe(totals.lines);
    const listed = await listPayouts(`?group_id=${groupId}`);
    expect(listed.reduce((sum, payout) => sum + Math.round(payout.total_commission * 100), 0)).toBe(totals.lines);
  });

  it('settles refunds booked after a payout in the next one, so all payouts add up to all commission', async () => {
    const groupId = await createGroup();
    const seller = await addSeller(groupId, 'Dag Öst');
    const orderId = await addOrder(groupId, seller, '2025-08-05T08:00:00Z', [
      { amountOre: 12_900, commissionOre: 3_225 },
      { amountOre: 8_900, commissionOre: 2_225 },
    ]);
    await addOrder(groupId, seller, '2025-08-20T08:00:00Z', [{ amountOre: 5_900, commissionOre: 1_475 }]);
    const august = await createPayoutRequest({ group_id: groupId, from: '2025-08-01', to: '2025-08-31' });
    expect(august.body.created).toBe(true);

    // The customer returns one product in September; the refund line keeps its own booking time.
    await addLines(orderId, groupId, seller, '2025-09-03T15:00:00Z', [
      { amountOre: -8_900, commissionOre: -2_225, kind: 'refund', title: 'Tandborstar i bambu 4-pack' },
    ]);
    await addOrder(groupId, seller, '2025-09-10T08:00:00Z', [{ amountOre: 10_900, commissionOre: 2_725 }]);
    const september = await createPayoutRequest({ group_id: groupId, from: '2025-08-01', to: '2025-09-30' });
    expect(september.body.created).toBe(true);

    const [refund] = await rows<{ payout_id: number }>(
      sql`select payout_id from order_lines where order_id = ${orderId} and kind = 'refund'`,
    );
    expect(refund!.payout_id).toBe(september.body.id);
    const totals = await groupCommissionOre(groupId);
    expect(totals).toEqual({ lines: totals.payouts, settled: totals.payouts, payouts: totals.payouts });
    const listed = await listPayouts(`?group_id=${groupId}`);
    expect(listed.reduce((sum, p) => sum + Math.round(p.total_commission * 100), 0)).toBe(totals.lines);
    expect(Math.round(september.body.amount * 100)).toBe(-2_225 + 2_725);
    for (const payout of await payoutsAgainstTheirLines(groupId)) expect(payout.stored).toBe(payout.from_lines);
  });

  it('reads the period as whole Stockholm days, also on the days the clocks change', async () => {
    const groupId = await createGroup();
    const seller = await addSeller(groupId, 'Eva Gran');
    // Instants written out by hand: CET is UTC+1, CEST (summer) is UTC+2.
    const instants = {
      // Autumn changeover 2025-10-26 (25-hour day), period 2025-10-20 – 2025-10-26.
      autumnBeforeFirstDay: '2025-10-19T21:50:00Z', // 2025-10-19 23:50 CEST: outside
      autumnFirstDayEarly: '2025-10-19T22:05:00Z', // 2025-10-20 00:05 CEST: inside
      autumnLastDayLate: '2025-10-26T22:30:00Z', // 2025-10-26 23:30 CET: inside
      autumnNextDayEarly: '2025-10-26T23:10:00Z', // 2025-10-27 00:10 CET: outside
      // Spring changeover 2025-03-30 (23-hour day), period 2025-03-24 – 2025-03-30.
      springLastDayLate: '2025-03-30T21:30:00Z', // 2025-03-30 23:30 CEST: inside
      springNextDayEarly: '2025-03-30T22:10:00Z', // 2025-03-31 00:10 CEST: outside
      springFirstDayEarly: '2025-03-23T23:05:00Z', // 2025-03-24 00:05 CET: inside
      springBeforeFirstDay: '2025-03-23T22:50:00Z', // 2025-03-23 23:50 CET: outside
    };
    const orderIds = Object.fromEntries(
      await Promise.all(
        Object.entries(instants).map(
          async ([name, at]) => [name, await addOrder(groupId, seller, at, [{ amountOre: 10_000, commissionOre: 2_500 }])] as const,
        ),
      ),
    );

    const autumn = await createPayoutRequest({ group_id: groupId, from: '2025-10-20', to: '2025-10-26' });
    const spring = await createPayoutRequest({ group_id: groupId, from: '2025-03-24', to: '2025-03-30' });
    const settledIn = async (payoutId: number | null) =>
      (await rows<{ order_id: number }>(sql`select order_id from order_lines where payout_id = ${payoutId} order by order_id`)).map((row) =>
        Number(row.order_id),
      );
    expect(await settledIn(autumn.body.id)).toEqual([orderIds.autumnFirstDayEarly, orderIds.autumnLastDayLate].sort((a, b) => a! - b!));
    expect(await settledIn(spring.body.id)).toEqual([orderIds.springLastDayLate, orderIds.springFirstDayEarly].sort((a, b) => a! - b!));
    expect(autumn.body.amount).toBe(50);
    expect(spring.body.amount).toBe(50);
  });

  it('archives the group in the same transaction that creates the payout, and only when asked', async () => {
    const groupId = await createGroup();
    const seller = await addSeller(groupId, 'Frida Hägg');
    await addOrder(groupId, seller, '2025-06-02T10:00:00Z', [{ amountOre: 7_900, commissionOre: 1_975 }]);
    await addOrder(groupId, seller, '2025-07-02T10:00:00Z', [{ amountOre: 7_900, commissionOre: 1_975 }]);

    const notAsked = await createPayoutRequest({ group_id: groupId, from: '2025-06-01', to: '2025-06-30', auto_archive: false });
    expect(notAsked.body).toMatchObject({ created: true, auto_archived: false });
    const nothingLeft = await createPayoutRequest({ group_id: groupId, from: '2025-06-01', to: '2025-06-30', auto_archive: true });
    expect(nothingLeft.body).toMatchObject({ created: false, auto_archived: false });
    const [stillActive] = await rows<{ archived: boolean }>(sql`select archived from groups where id = ${groupId}`);
    expect(stillActive!.archived).toBe(false);

    // The web's default: auto_archive left out means on (spec §9).
    const response = await server.request('POST', '/api/admin/payouts', {
      token: adminToken,
      body: { group_id: groupId, from: '2025-07-01', to: '2025-07-31' },
    });
    const archiving = (await response.json()) as TCreatePayoutResponse;
    expect(archiving).toMatchObject({ created: true, auto_archived: true });
    // The same transaction id wrote the group, the payout, its lines and both audit entries.
    const writers = await rows<{ what: string; xid: string }>(sql`
      select 'group' as what, xmin::text as xid from groups where id = ${groupId}
      union all select 'payout', xmin::text from payouts where id = ${archiving.id}
      union all select 'line', xmin::text from order_lines where payout_id = ${archiving.id}
      union all select action, xmin::text from audit_entries where (target_type = 'payout' and target_id = ${String(archiving.id)})
                                                            or (target_type = 'group' and target_id = ${String(groupId)})`);
    expect(writers.map((w) => w.what).sort()).toEqual(['group', 'group.archive', 'line', 'payout', 'payout.create']);
    expect(new Set(writers.map((w) => w.xid)).size).toBe(1);
    const [group] = await rows<{ archived: boolean }>(sql`select archived from groups where id = ${groupId}`);
    expect(group!.archived).toBe(true);
  });
});

describe('marking a payout paid', () => {
  it('goes from draft to paid once; the next attempt is a 409 and changes nothing', async () => {
    const groupId = await createGroup();
    const seller = await addSeller(groupId, 'Gösta Björk');
    await addOrder(groupId, seller, '2025-01-15T10:00:00Z', [{ amountOre: 14_900, commissionOre: 3_725 }]);
    const { body } = await createPayoutRequest({ group_id: groupId, from: '2025-01-01', to: '2025-01-31' });

    const first = await server.request('PATCH', `/api/admin/payouts/${body.id}`, { token: adminToken, body: { status: 'paid' } });
    expect(first.status).toBe(200);
    const paid = (await first.json()) as TPayout;
    expect(paid).toMatchObject({ id: body.id, status: 'paid', group_id: groupId, total_commission: 37.25 });
    expect(Date.parse(paid.paid_at!)).toBeGreaterThanOrEqual(Date.parse(paid.created_at));

    const second = await server.request('PATCH', `/api/admin/payouts/${body.id}`, { token: adminToken, body: { status: 'paid' } });
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({ error: { code: 'ALREADY_PAID', message: 'Avräkningen är redan markerad som betald' } });
    const [row] = await rows<{ paid_at: string; marks: number }>(sql`
      select paid_at::text, (select count(*)::int from audit_entries where action = 'payout.mark_paid' and target_id = ${String(body.id)}) as marks
      from payouts where id = ${body.id}`);
    expect(new Date(row!.paid_at).toISOString()).toBe(paid.paid_at);
    expect(row!.marks).toBe(1);
  });

  it('of simultaneous requests exactly one marks it', async () => {
    const groupId = await createGroup();
    const seller = await addSeller(groupId, 'Hanna Ask');
    await addOrder(groupId, seller, '2025-01-15T10:00:00Z', [{ amountOre: 5_900, commissionOre: 1_475 }]);
    const { body } = await createPayoutRequest({ group_id: groupId, from: '2025-01-01', to: '2025-01-31' });
    const statuses = await Promise.all(
      Array.from(
        { length: 8 },
        async () =>
          (await server.request('PATCH', `/api/admin/payouts/${body.id}`, { token: adminToken, body: { status: 'paid' } })).status,
      ),
    );
    expect(statuses.sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
  });

  it('refuses another status, an unknown payout and a malformed id', async () => {
    const draft = await server.request('PATCH', '/api/admin/payouts/2', { token: adminToken, body: { status: 'draft' } });
    expect(draft.status).toBe(400);
    expect(((await draft.json()) as { error: { message: string } }).error.message).toBe("Status kan bara ändras till 'paid'");
    const unknown = await server.request('PATCH', '/api/admin/payouts/2000000000', { token: adminToken, body: { status: 'paid' } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe('Avräkningen finns inte');
    expect((await server.request('PATCH', '/api/admin/payouts/abc', { token: adminToken, body: { status: 'paid' } })).status).toBe(400);
  });
});

describe('listing payouts', () => {
  it('answers every payout with the spec §3 fields and the figures stored for it', async () => {
    const listed = await listPayouts();
    const stored = await rows<{
      id: number;
      group_name: string;
      period_from: string;
      period_to: string;
      orders_count: number;
      commission: string;
      status: string;
    }>(sql`
      select p.id, g.name as group_name, p.period_from::text, p.period_to::text, p.orders_count, p.commission_ore::text as commission, p.status::text
      from payouts p join groups g on g.id = p.group_id order by p.created_at desc, p.id desc`);
    expect(
      listed.map((p) => [p.id, p.group_name, p.period_from, p.period_to, p.orders_count, Math.round(p.total_commission * 100), p.status]),
    ).toEqual(stored.map((p) => [p.id, p.group_name, p.period_from, p.period_to, p.orders_count, Number(p.commission), p.status]));
    expect(listed.find((p) => p.group_name === 'Klass 9A Ekskolan')).toMatchObject({ status: 'paid', paid_at: expect.any(String) });
  });

  it('holds for the demo payouts too, which the seed settles through the same function', async () => {
    const mismatched = await rows(sql`
      select p.id from payouts p left join order_lines l on l.payout_id = p.id
      group by p.id
      having concat_ws('/', p.orders_count, p.lines_count, p.sales_ore, p.commission_ore)
          <> concat_ws('/', count(distinct l.order_id) filter (where l.kind = 'sale' and not exists (
             select 1 from order_lines c where c.payout_id = p.id and c.order_id = l.order_id and c.kind = 'cancellation')), count(l.id), coalesce(sum(l.amount_ore), 0), coalesce(sum(l.commission_ore), 0))`);
    expect(mismatched).toEqual([]);
    const [archivedClass] = await rows<{ group_id: number }>(sql`select id as group_id from groups where code = 'EK9A34'`);
    const totals = await groupCommissionOre(archivedClass!.group_id);
    expect(totals.payouts).toBeGreaterThan(0);
    expect(totals.payouts).toBe(totals.lines);
  });

  it('filters on status (open means draft), group and overlapping period', async () => {
    const all = await listPayouts('?status=all');
    expect(all.length).toBeGreaterThan(2);
    const open = await listPayouts('?status=open');
    expect(open.map((p) => p.id)).toEqual(all.filter((p) => p.status === 'draft').map((p) => p.id));
    expect(await listPayouts('?status=draft')).toEqual(open);
    expect((await listPayouts('?status=paid')).map((p) => p.id)).toEqual(all.filter((p) => p.status === 'paid').map((p) => p.id));

    const groupId = all[0]!.group_id;
    expect((await listPayouts(`?group_id=${groupId}&status=`)).map((p) => p.id)).toEqual(
      all.filter((p) => p.group_id === groupId).map((p) => p.id),
    );

    const overlapping = await listPayouts('?from=2025-04-10&to=2025-04-12');
    expect(overlapping.map((p) => p.id)).toEqual(
      all.filter((p) => p.period_to >= '2025-04-10' && p.period_from <= '2025-04-12').map((p) => p.id),
    );
    expect(overlapping.length).toBeGreaterThan(0);
  });

  it('refuses a bad filter with a Swedish 400', async () => {
    const badStatus = await server.request('GET', '/api/admin/payouts?status=betald', { token: adminToken });
    expect(badStatus.status).toBe(400);
    expect(((await badStatus.json()) as { error: { message: string } }).error.message).toBe('Ogiltig status');
    const reversed = await server.request('GET', '/api/admin/payouts?from=2025-05-01&to=2025-04-01', { token: adminToken });
    expect(reversed.status).toBe(400);
    expect(((await reversed.json()) as { error: { message: string } }).error.message).toBe('Från-datum kan inte vara efter Till-datum.');
  });
});

describe('the payout PDF', () => {
  const pdfText = (pdf: Buffer) => {
    const file = path.join(os.tmpdir(), `avrakning-test-${crypto.randomUUID()}.pdf`);
    fs.writeFileSync(file, pdf);
    try {
      return {
        // pdftotext marks a right-to-left run with embedding controls (U+202B … U+202C), which a reader never sees.
        text: execFileSync('/usr/bin/pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
          .replace(/[\u00a0\u202f]/g, ' ')
          .replace(/[\u202a-\u202e]/g, ''),
        pages: Number(/Pages:\s+(\d+)/.exec(execFileSync('/usr/bin/pdfinfo', [file], { encoding: 'utf8' }))![1]),
      };
    } finally {
      fs.rmSync(file);
    }
  };
  const sekText = (ore: number) =>
    `${(ore / 100)
      .toFixed(2)
      .replace(/\B(?=(\d{3})+(?!\d))/g, ' ')
      .replace('.', ',')} kr`;

  it('shows the group, the period, status, sellers, every line and the totals, over clean pages', async () => {
    const groupId = await createGroup('Klass 7Ö Åsskolan');
    const sellers = [await addSeller(groupId, 'Åsa Ängström'), await addSeller(groupId, 'Örjan Lärk')];
    const orderNames: string[] = [];
    for (let i = 0; i < 70; i++) {
      const name = `#Å${5000 + i}`;
      orderNames.push(name);
      await addOrder(
        groupId,
        sellers[i % 2]!,
        `2025-11-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`,
        [
          { amountOre: 14_900 + i, commissionOre: 3_725 + i, title: 'Svensk honung 350 g från Västergötland' },
          { amountOre: 6_500, commissionOre: 1_625, title: 'Tvål med havtorn' },
        ],
        name,
      );
    }
    const { body } = await createPayoutRequest({ group_id: groupId, from: '2025-11-01', to: '2025-11-30' });
    const [figures] = await rows<{ commission: string; sales: string }>(sql`
      select sum(commission_ore)::text as commission, sum(amount_ore)::text as sales from order_lines where payout_id = ${body.id}`);
    const perSeller = await rows<{ full_name: string; orders: number; commission: string }>(sql`
      select u.full_name, count(distinct l.order_id)::int as orders, sum(l.commission_ore)::text as commission
      from order_lines l join memberships m on m.id = l.membership_id join users u on u.id = m.user_id
      where l.payout_id = ${body.id} group by u.full_name`);

    const response = await server.request('GET', `/api/admin/payouts/${body.id}/export.pdf`, { token: adminToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename=avrakning-${body.id}.pdf`);
    const { text, pages } = pdfText(Buffer.from(await response.arrayBuffer()));

    expect(text).toContain('Avräkning');
    expect(text).toContain('Klass 7Ö Åsskolan');
    expect(text).toContain('2025-11-01 – 2025-11-30');
    expect(text).toContain(`Nr ${body.id}`);
    expect(text).toContain('Utkast');
    const commissionOre = Number(figures!.commission);
    const toPayOre = Math.round(commissionOre / 100) * 100;
    expect(text).toMatch(new RegExp(`Att betala\\s+${sekText(toPayOre)}`));
    expect(text).toMatch(new RegExp(`Öresavrundning\\s+${sekText(toPayOre - commissionOre).replace('-', '-?')}`));
    expect(text).toMatch(new RegExp(`Totalt\\s+${sekText(Number(figures!.sales))}\\s+${sekText(Number(figures!.commission))}`));
    for (const seller of perSeller) {
      expect(text).toMatch(new RegExp(`${seller.full_name}\\s+${seller.orders}\\s+[\\d ,]+ kr\\s+${sekText(Number(seller.commission))}`));
    }
    for (const name of orderNames) expect(text.split(name).length - 1, name).toBe(2);
    // 140 lines do not fit on one page; each page says where it is, and tables carry their header on.
    expect(pages).toBeGreaterThan(2);
    for (let page = 1; page <= pages; page++) expect(text).toContain(`Sida ${page} av ${pages}`);
    expect(text.split('Orderrader (forts.)').length - 1).toBe(pages - 1);

    await server.request('PATCH', `/api/admin/payouts/${body.id}`, { token: adminToken, body: { status: 'paid' } });
    const paid = pdfText(
      Buffer.from(await (await server.request('GET', `/api/admin/payouts/${body.id}/export.pdf`, { token: adminToken })).arrayBuffer()),
    );
    expect(paid.text).toContain('Betald');
    expect(paid.text).toMatch(/Betald\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} av Sara Superadmin/);
  });

  it('prints the group’s and the sellers’ names exactly as they are written (issue 32 point 3)', async () => {
    const groupId = await createGroup('Klass 5Ş Łódźskolan');
    const names = ['Łucja Şahin-Nguyễn', 'Μαρία Παπαδοπούλου', 'Мария Иванова', 'محمد علي'];
    for (const [i, name] of names.entries()) {
      const seller = await addSeller(groupId, name);
      await addOrder(
        groupId,
        seller,
        `2025-12-0${i + 1}T10:00:00Z`,
        [{ amountOre: 14_900, commissionOre: 3_725, title: 'Tvål „Łagodne”' }],
        `#Ł${i}`,
      );
    }
    const { body } = await createPayoutRequest({ group_id: groupId, from: '2025-12-01', to: '2025-12-31' });
    const response = await server.request('GET', `/api/admin/payouts/${body.id}/export.pdf`, { token: adminToken });
    expect(response.status).toBe(200);
    const { text } = pdfText(Buffer.from(await response.arrayBuffer()));
    expect(text).toContain('Klass 5Ş Łódźskolan');
    // Whole in the table per seller (the order lines' narrower column may wrap a long name).
    for (const name of names) expect(text, name).toMatch(new RegExp(`${name}\\s+1\\s+149,00 kr\\s+37,25 kr`));
    expect(text.split('Tvål „Łagodne”').length - 1).toBe(names.length);
  });

  it('answers 404 for a payout that does not exist', async () => {
    const response = await server.request('GET', '/api/admin/payouts/2000000000/export.pdf', { token: adminToken });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Avräkningen finns inte' } });
  });
});
