import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TGroupTotalsResponse, TMeSummaryResponse, TOutstandingPayoutsResponse } from '@saljportalen/contract';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { ledgerViolations } from '../../../test/ledger-invariants.js';
import { pdfText } from '../../../test/pdf-tools.js';
import { addCalendarDays, stockholmDate } from '../../lib/dates.js';
import { groupPayoutAccounts, orderLines, orders } from '../../db/schema.js';

// The holding period (issue 30 point 4), PAYOUT_HOLD_DAYS=14: commission of an order younger than
// 14 days is 'Väntande' for the pupil and the teacher, no payout takes it, a refund inside it takes
// the pending commission away, and a refund after a payout is a deduction carried to the next one,
// which says 'Att få tillbaka' when the deductions are more than what it pays.

const HOLD = 14;
let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  server = await startTestServer({ seed: true, env: { PAYOUT_HOLD_DAYS: String(HOLD) } });
  adminToken = await server.login('admin@saljportalen.se');
});
afterAll(() => server.close());

const today = () => stockholmDate(new Date());
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
const get = async <T>(path: string, token: string) => (await (await server.request('GET', path, { token })).json()) as T;
let nextShopifyId = 9_500_000_000_000;

async function classWithPupil() {
  const created = await server.request('POST', '/api/admin/groups/create', {
    token: adminToken,
    body: {
      group_name: `Ångerklassen ${crypto.randomUUID().slice(0, 6)}`,
      admin: { email: `larare-${crypto.randomUUID().slice(0, 8)}@test.se`, password: 'larar-losen-123', full_name: 'Lisa Lärare' },
    },
  });
  const { group, admin } = (await created.json()) as { group: { id: number; group_code: string }; admin: { email: string } };
  await server.app.db
    .insert(groupPayoutAccounts)
    .values({ groupId: group.id, kind: 'bankgiro', accountNumber: '99912347', holderName: 'Ångerskolan' });
  const registered = await server.request('POST', '/api/auth/register-seller', {
    body: {
      full_name: 'Ida Ång',
      email: `ida-${crypto.randomUUID().slice(0, 8)}@test.se`,
      password: 'elev-losen-123',
      group_code: group.group_code,
    },
  });
  const pupilToken = ((await registered.json()) as { token: string }).token;
  const [membership] = await sqlRows<{ id: number }>(
    server.app.db,
    sql`select m.id from memberships m where m.group_id = ${group.id} and m.role = 'seller'`,
  );
  return { groupId: group.id, membershipId: membership!.id, pupilToken, teacherToken: await server.login(admin.email, 'larar-losen-123') };
}

/** A paid order of one line, placed `days` days ago; returns the order and its sale line. */
async function order(groupId: number, membershipId: number, placed: Date, amountOre: number) {
  const id = nextShopifyId++;
  const commissionOre = amountOre / 4;
  const [row] = await server.app.db
    .insert(orders)
    .values({
      shopifyOrderId: String(id),
      orderName: `#H${id % 100_000}`,
      orderedAt: placed,
      membershipId,
      groupId,
      subtotalOre: amountOre,
      commissionOre,
      state: 'paid',
    })
    .returning({ id: orders.id });
  const [line] = await server.app.db
    .insert(orderLines)
    .values({
      orderId: row!.id,
      kind: 'sale',
      shopifyLineId: String(id),
      title: 'Tvål',
      quantity: 1,
      amountOre,
      commissionOre,
      groupId,
      membershipId,
      bookedAt: placed,
    })
    .returning({ id: orderLines.id });
  return { orderId: row!.id, lineId: line!.id, commissionOre };
}

/** A whole refund of the order's sale line, booked now, as the ledger writes one. */
async function refund(sale: { orderId: number; lineId: number; commissionOre: number }, groupId: number, membershipId: number) {
  await server.app.db.insert(orderLines).values({
    orderId: sale.orderId,
    kind: 'refund',
    shopifyLineId: String(nextShopifyId++),
    reversesLineId: sale.lineId,
    title: 'Tvål',
    quantity: -1,
    amountOre: -sale.commissionOre * 4,
    commissionOre: -sale.commissionOre,
    groupId,
    membershipId,
    bookedAt: new Date(),
  });
  await server.app.db.execute(
    sql`update orders set state = 'refunded', subtotal_ore = (select sum(amount_ore) from order_lines where order_id = ${sale.orderId}),
        commission_ore = (select sum(commission_ore) from order_lines where order_id = ${sale.orderId}) where id = ${sale.orderId}`,
  );
}

const createPayout = (groupId: number, from: string, to: string) =>
  server.request('POST', '/api/admin/payouts', { token: adminToken, body: { group_id: groupId, from, to, auto_archive: false } });

describe('a holding period of 14 days', () => {
  it("shows a young order's commission as 'Väntande' to the pupil and the teacher, until a refund takes it away", async () => {
    const klass = await classWithPupil();
    await order(klass.groupId, klass.membershipId, daysAgo(20), 40_000);
    const young = await order(klass.groupId, klass.membershipId, daysAgo(3), 20_000);

    const summary = await get<TMeSummaryResponse>('/api/me/summary', klass.pupilToken);
    expect(summary.payout_hold_days).toBe(HOLD);
    expect(summary.personal).toMatchObject({ total_commission: 150, pending_commission: 50 });
    const totals = await get<TGroupTotalsResponse>('/api/group/totals', klass.teacherToken);
    expect(totals.totals).toMatchObject({ total_commission: 150, pending_commission: 50 });

    await refund(young, klass.groupId, klass.membershipId);
    expect((await get<TMeSummaryResponse>('/api/me/summary', klass.pupilToken)).personal).toMatchObject({
      total_commission: 100,
      pending_commission: 0,
    });
  });

  it('lets no payout end after the last payable day, and settles only what is payable', async () => {
    const klass = await classWithPupil();
    await order(klass.groupId, klass.membershipId, daysAgo(20), 40_000);
    await order(klass.groupId, klass.membershipId, daysAgo(3), 20_000);
    const lastPayable = addCalendarDays(today(), -HOLD);

    const refused = await createPayout(klass.groupId, addCalendarDays(today(), -30), today());
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { details: unknown } }).error.details).toEqual([
      {
        field: 'to',
        message: `Till-datum kan vara högst ${lastPayable}: köp efter det är väntande, eftersom köparen har ${HOLD} dagars ångerrätt.`,
      },
    ]);
    const created = await createPayout(klass.groupId, addCalendarDays(today(), -30), lastPayable);
    expect(await created.json()).toMatchObject({ created: true, amount: 100 });
    const [held] = await sqlRows<{ unsettled: number }>(
      server.app.db,
      sql`select sum(commission_ore)::int as unsettled from order_lines where group_id = ${klass.groupId} and payout_id is null`,
    );
    expect(held!.unsettled).toBe(5_000);
  });

  it("carries a refund after a payout to the next one as 'Avdrag', which says 'Att få tillbaka' when it is more than the payout pays", async () => {
    const klass = await classWithPupil();
    const old = await order(klass.groupId, klass.membershipId, daysAgo(30), 40_000);
    const lastPayable = addCalendarDays(today(), -HOLD);
    const first = (await (await createPayout(klass.groupId, addCalendarDays(today(), -40), lastPayable)).json()) as { id: number };
    await server.request('PATCH', `/api/admin/payouts/${first.id}`, { token: adminToken, body: { status: 'paid' } });

    // A week later the buyer sends it back: booked today, long after the paid period.
    await order(klass.groupId, klass.membershipId, daysAgo(16), 8_000);
    await refund(old, klass.groupId, klass.membershipId);
    const outstanding = (await get<TOutstandingPayoutsResponse>('/api/admin/payouts/outstanding', adminToken)).find(
      (row) => row.group_id === klass.groupId,
    );
    // The deduction and the payable order since; the row's period ends on the last payable day.
    expect(outstanding).toMatchObject({ lines_count: 2, total_commission: -80, amount_to_pay: -80, period_to: lastPayable });

    const next = await createPayout(klass.groupId, outstanding!.period_from, outstanding!.period_to);
    const nextBody = (await next.json()) as { id: number; amount: number };
    expect(nextBody.amount).toBe(-80);
    const pdf = pdfText(
      Buffer.from(await (await server.request('GET', `/api/admin/payouts/${nextBody.id}/export.pdf`, { token: adminToken })).arrayBuffer()),
    );
    expect(pdf).toMatch(new RegExp(`Avdrag från avräkning nr ${first.id}\\s+1 orderrad, -100,00 kr i provision`));
    expect(pdf).toMatch(/Att få tillbaka\s+80,00 kr/);
    expect(
      (await get<TOutstandingPayoutsResponse>('/api/admin/payouts/outstanding', adminToken)).some((row) => row.group_id === klass.groupId),
    ).toBe(false);
    // Every rule of the ledger still holds, the carried deduction included.
    expect(await ledgerViolations(server.app.db)).toEqual([]);
  });
});
