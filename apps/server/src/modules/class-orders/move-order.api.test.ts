import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TClassOrdersResponse, TFullLeaderboard, TMoveOrderResponse } from '@saljportalen/contract';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { ledgerViolations } from '../../../test/ledger-invariants.js';
import { pdfText } from '../../../test/pdf-tools.js';
import { groupPayoutAccounts, memberships, orderLines, orders, users } from '../../db/schema.js';

// Moving a sale to the pupil who made it (issue 30 point 5): the teacher moves an order no payout
// has taken, the superadmin any order, one a payout took by correction lines; always within the
// class, audited with the reason, and the figures of both pupils change at once.

let server: TestServer;
let adminToken: string;
let otherTeacherToken: string;
const TEACHER_PASSWORD = 'larar-losen-123';
beforeAll(async () => {
  server = await startTestServer({ seed: true });
  [adminToken, otherTeacherToken] = await Promise.all([server.login('admin@saljportalen.se'), server.login('tranare@savedalen.se')]);
});
afterAll(() => server.close());

const rows = <T>(query: ReturnType<typeof sql>) => sqlRows<T>(server.app.db, query);
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; details?: unknown } }).error;
let nextShopifyId = 9_400_000_000_000;

/** A class with its teacher (who can sign in) and three pupils, one of them waiting for a guardian. */
async function classWithPupils() {
  const teacherEmail = `larare-${crypto.randomUUID().slice(0, 8)}@test.se`;
  const created = await server.request('POST', '/api/admin/groups/create', {
    token: adminToken,
    body: {
      group_name: `Flyttklassen ${crypto.randomUUID().slice(0, 6)}`,
      admin: { email: teacherEmail, password: TEACHER_PASSWORD, full_name: 'Lena Lärare' },
    },
  });
  const groupId = ((await created.json()) as { group: { id: number } }).group.id;
  await server.app.db
    .insert(groupPayoutAccounts)
    .values({ groupId, kind: 'bankgiro', accountNumber: '99912347', holderName: 'Flyttskolan' });
  const pupil = async (fullName: string, consent: 'pending' | null = null) => {
    const [user] = await server.app.db
      .insert(users)
      .values({ email: `${crypto.randomUUID()}@test.se`, passwordHash: 'ingen-inloggning', fullName, guardianConsent: consent })
      .returning({ id: users.id });
    const [membership] = await server.app.db
      .insert(memberships)
      .values({ userId: user!.id, groupId, linkCode: crypto.randomBytes(6).toString('hex') })
      .returning({ id: memberships.id });
    return { userId: user!.id, membershipId: membership!.id };
  };
  return {
    groupId,
    teacherToken: await server.login(teacherEmail, TEACHER_PASSWORD),
    alva: await pupil('Alva Berg'),
    elias: await pupil('Elias Dahl'),
    maja: await pupil('Maja Ek'),
    waiting: await pupil('Vera Väntar', 'pending'),
  };
}

/** A paid order of one line through the pupil's link. */
async function order(groupId: number, membershipId: number, orderedAt = new Date(Date.now() - 3_600_000)) {
  const id = nextShopifyId++;
  const [row] = await server.app.db
    .insert(orders)
    .values({
      shopifyOrderId: String(id),
      orderName: `#F${id % 100_000}`,
      orderedAt,
      membershipId,
      groupId,
      subtotalOre: 24_900,
      commissionOre: 6_225,
      state: 'paid',
    })
    .returning({ id: orders.id });
  await server.app.db.insert(orderLines).values({
    orderId: row!.id,
    kind: 'sale',
    shopifyLineId: String(id * 10),
    title: 'Bivaxdukar 3-pack',
    quantity: 1,
    amountOre: 24_900,
    commissionOre: 6_225,
    groupId,
    membershipId,
    bookedAt: orderedAt,
  });
  return row!.id;
}

const move = (token: string, orderId: number, body: Record<string, unknown>) =>
  server.request('POST', `/api/group/orders/${orderId}/move`, { token, body });

/** Each pupil's sales as the teacher's leaderboard shows them (the read model), in kronor by user id. */
async function leaderboard(token: string) {
  const board = (await (await server.request('GET', '/api/group/leaderboard-mine', { token })).json()) as TFullLeaderboard;
  return Object.fromEntries(board.items.map((item) => [item.user_id, item.sales]));
}

describe('the teacher moves a sale', () => {
  it('to another pupil of the class: the order, its lines and both pupils’ figures move at once, audited with the reason', async () => {
    const klass = await classWithPupils();
    const orderId = await order(klass.groupId, klass.alva.membershipId);
    expect(await leaderboard(klass.teacherToken)).toMatchObject({ [klass.alva.userId]: 249, [klass.elias.userId]: 0 });

    const listed = (await (
      await server.request('GET', `/api/group/orders?group_id=${klass.groupId}`, { token: klass.teacherToken })
    ).json()) as TClassOrdersResponse;
    expect(listed.items).toEqual([
      expect.objectContaining({
        order_id: orderId,
        membership_id: klass.alva.membershipId,
        seller_name: 'Alva Berg',
        in_payout: false,
        subtotal_incl_vat: 249,
      }),
    ]);

    const moved = await move(klass.teacherToken, orderId, {
      to_membership_id: klass.elias.membershipId,
      reason: 'Farmor köpte via fel länk',
    });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as TMoveOrderResponse).order).toEqual({
      order_id: orderId,
      membership_id: klass.elias.membershipId,
      seller_name: 'Elias Dahl',
      by_correction: false,
    });
    // The very next read, through the read model, shows both families' new figures.
    expect(await leaderboard(klass.teacherToken)).toMatchObject({ [klass.alva.userId]: 0, [klass.elias.userId]: 249 });
    const lines = await rows<{ membership_id: number }>(sql`select membership_id from order_lines where order_id = ${orderId}`);
    expect(lines).toEqual([{ membership_id: klass.elias.membershipId }]);
    const [audit] = await rows<{ details: Record<string, unknown> }>(
      sql`select details from audit_entries where action = 'order.move' and target_id = ${String(orderId)}`,
    );
    expect(audit!.details).toMatchObject({
      from_membership_id: klass.alva.membershipId,
      to_membership_id: klass.elias.membershipId,
      reason: 'Farmor köpte via fel länk',
      by_correction: false,
    });
  });

  it('refuses, changing nothing, a missing reason, a pupil outside the class, one waiting for a guardian, and a sale of another class', async () => {
    const klass = await classWithPupils();
    const other = await classWithPupils();
    const orderId = await order(klass.groupId, klass.alva.membershipId);
    const refusals = [
      [{ to_membership_id: klass.elias.membershipId, reason: ' ' }, 'reason', 'Skriv varför försäljningen flyttas'],
      [{ to_membership_id: klass.elias.membershipId }, 'reason', 'Skriv varför försäljningen flyttas'],
      [{ to_membership_id: other.elias.membershipId, reason: 'Fel länk' }, 'to_membership_id', 'Eleven finns inte i klassen'],
      [
        { to_membership_id: klass.waiting.membershipId, reason: 'Fel länk' },
        'to_membership_id',
        'väntar på en vårdnadshavares godkännande',
      ],
    ] as const;
    for (const [body, field, message] of refusals) {
      const response = await move(klass.teacherToken, orderId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).details).toEqual([{ field, message: expect.stringContaining(message) }]);
    }
    // Another class's teacher, another group's admin and a pupil are told the order does not exist.
    for (const token of [other.teacherToken, otherTeacherToken]) {
      const response = await move(token, orderId, { to_membership_id: klass.elias.membershipId, reason: 'Fel länk' });
      expect(response.status).toBe(404);
    }
    expect((await server.request('GET', `/api/group/orders?group_id=${klass.groupId}`, { token: other.teacherToken })).status).toBe(403);
    expect((await move(klass.teacherToken, 2_000_000_000, { to_membership_id: klass.elias.membershipId, reason: 'Fel länk' })).status).toBe(
      404,
    );
    expect((await server.request('POST', `/api/group/orders/${orderId}/move`, { body: { to_membership_id: 1, reason: 'x' } })).status).toBe(
      401,
    );
    const [still] = await rows<{ membership_id: number; moves: number }>(
      sql`select membership_id, (select count(*)::int from audit_entries where action = 'order.move' and target_id = ${String(orderId)}) as moves from orders where id = ${orderId}`,
    );
    expect(still).toEqual({ membership_id: klass.alva.membershipId, moves: 0 });
  });
});

describe('a sale a payout has taken', () => {
  it('is not the teacher’s to move; the superadmin moves it by correction lines that the next payout settles', async () => {
    const klass = await classWithPupils();
    const day = new Date(Date.now() - 2 * 86_400_000);
    const orderId = await order(klass.groupId, klass.alva.membershipId, day);
    const dayText = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(day);
    const first = await server.request('POST', '/api/admin/payouts', {
      token: adminToken,
      body: { group_id: klass.groupId, from: dayText, to: dayText, auto_archive: false },
    });
    const firstId = ((await first.json()) as { id: number }).id;
    await server.request('PATCH', `/api/admin/payouts/${firstId}`, { token: adminToken, body: { status: 'paid' } });

    const refused = await move(klass.teacherToken, orderId, { to_membership_id: klass.elias.membershipId, reason: 'Fel länk' });
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).message).toContain('rättelse i nästa avräkning');

    const moved = await move(adminToken, orderId, { to_membership_id: klass.elias.membershipId, reason: 'Mormor köpte via fel länk' });
    expect(((await moved.json()) as TMoveOrderResponse).order.by_correction).toBe(true);
    expect(await leaderboard(klass.teacherToken)).toMatchObject({ [klass.alva.userId]: 0, [klass.elias.userId]: 249 });
    // The paid payout keeps its line; two transfer lines wait for the next payout and add up to nothing.
    const lines = await rows<{ kind: string; membership_id: number; commission_ore: number; payout_id: number | null }>(
      sql`select kind::text, membership_id, commission_ore::int, payout_id from order_lines where order_id = ${orderId} order by id`,
    );
    expect(lines).toEqual([
      { kind: 'sale', membership_id: klass.alva.membershipId, commission_ore: 6_225, payout_id: firstId },
      { kind: 'transfer', membership_id: klass.alva.membershipId, commission_ore: -6_225, payout_id: null },
      { kind: 'transfer', membership_id: klass.elias.membershipId, commission_ore: 6_225, payout_id: null },
    ]);

    // Moved once more, to Maja: only she holds the sale, and Elias's share is taken back too.
    await move(adminToken, orderId, { to_membership_id: klass.maja.membershipId, reason: 'Det var Maja' });
    const held = await rows<{ membership_id: number; commission: number }>(
      sql`select membership_id, sum(commission_ore)::int as commission from order_lines where order_id = ${orderId} group by membership_id order by membership_id`,
    );
    expect(held).toEqual(
      expect.arrayContaining([
        { membership_id: klass.alva.membershipId, commission: 0 },
        { membership_id: klass.elias.membershipId, commission: 0 },
        { membership_id: klass.maja.membershipId, commission: 6_225 },
      ]),
    );

    // The next payout settles the corrections: nothing to pay for the class, each line on its PDF.
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(new Date());
    const next = await server.request('POST', '/api/admin/payouts', {
      token: adminToken,
      body: { group_id: klass.groupId, from: today, to: today, auto_archive: false },
    });
    const nextBody = (await next.json()) as { id: number; amount: number; created: boolean };
    expect(nextBody).toMatchObject({ created: true, amount: 0 });
    const pdf = pdfText(
      Buffer.from(await (await server.request('GET', `/api/admin/payouts/${nextBody.id}/export.pdf`, { token: adminToken })).arrayBuffer()),
    );
    // Each move is two lines: taken from one pupil ('avgår'), given to the next.
    expect(pdf.split('Flyttad försäljning, avgår:').length - 1).toBe(2);
    expect(pdf.split('Flyttad försäljning:').length - 1).toBe(2);
    // No order is counted again: the first payout counted it, where its sale was settled.
    expect(pdf).toMatch(/Maja Ek\s+0\s+249,00 kr\s+62,25 kr/);
    expect(pdf).toMatch(/Alva Berg\s+0\s+-249,00 kr\s+-62,25 kr/);
    const [unsettled] = await rows<{ count: number }>(
      sql`select count(*)::int as count from order_lines where order_id = ${orderId} and payout_id is null`,
    );
    expect(unsettled!.count).toBe(0);
    // Every rule of the ledger still holds: moved lines, transfers, corrections and deductions included.
    expect(await ledgerViolations(server.app.db)).toEqual([]);
  });
});
