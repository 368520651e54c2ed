import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPayout } from '@saljportalen/contract';
import type { TPayoutAccountResponse, TSetPayoutAccountResponse } from '@saljportalen/contract/payout-account';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { pdfText } from '../../../test/pdf-tools.js';
import { groups, memberships, orderLines, orders, users } from '../../db/schema.js';

// Where the money goes (issue 30 point 6): the superadmin sets a group's receiving account, checked
// by Bankgirot's rules; the teacher sees it masked; a payout is paid only to an account, and keeps
// the account it was paid to.

let server: TestServer;
let adminToken: string;
let teacherToken: string;
let sellerToken: string;
let otherTeacherToken: string;
let demoGroupId: number;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
  [adminToken, teacherToken, sellerToken, otherTeacherToken] = await Promise.all([
    server.login('admin@saljportalen.se'),
    server.login('larare@bjorkskolan.se'),
    server.login('noah@demo.se'),
    server.login('tranare@savedalen.se'),
  ]);
  const [group] = await sqlRows<{ id: number }>(server.app.db, sql`select id from groups where code = 'BJK6B2'`);
  demoGroupId = group!.id;
});
afterAll(() => server.close());

const put = (groupId: number, body: unknown) =>
  server.request('PUT', `/api/admin/groups/${groupId}/payout-account`, { token: adminToken, body });
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; details?: unknown } }).error;

async function groupWithPayout() {
  const [group] = await server.app.db
    .insert(groups)
    .values({ name: `Klass ${crypto.randomUUID().slice(0, 6)}`, code: crypto.randomBytes(4).toString('hex').toUpperCase() })
    .returning({ id: groups.id });
  const [user] = await server.app.db
    .insert(users)
    .values({ email: `${crypto.randomUUID()}@test.se`, passwordHash: 'ingen-inloggning', fullName: 'Saga Ek' })
    .returning({ id: users.id });
  const [membership] = await server.app.db
    .insert(memberships)
    .values({ userId: user!.id, groupId: group!.id, linkCode: crypto.randomBytes(6).toString('hex') })
    .returning({ id: memberships.id });
  const [order] = await server.app.db
    .insert(orders)
    .values({
      shopifyOrderId: String(9_300_000_000_000 + Math.floor(Math.random() * 1e9)),
      orderName: '#K1',
      orderedAt: new Date('2025-03-10T10:00:00Z'),
      membershipId: membership!.id,
      groupId: group!.id,
      state: 'paid',
      subtotalOre: 14_900,
      commissionOre: 3_725,
    })
    .returning({ id: orders.id });
  await server.app.db.insert(orderLines).values({
    orderId: order!.id,
    groupId: group!.id,
    membershipId: membership!.id,
    bookedAt: new Date('2025-03-10T10:00:00Z'),
    shopifyLineId: String(order!.id),
    title: 'Tvål',
    quantity: 1,
    amountOre: 14_900,
    commissionOre: 3_725,
    kind: 'sale',
  });
  const created = await server.request('POST', '/api/admin/payouts', {
    token: adminToken,
    body: { group_id: group!.id, from: '2025-03-01', to: '2025-03-31', auto_archive: false },
  });
  const { id } = (await created.json()) as { id: number };
  return { groupId: group!.id, payoutId: id };
}

describe('setting a group’s payout details', () => {
  it('keeps each kind as digits, answers it written out, and logs it without the whole number', async () => {
    const { groupId } = await groupWithPayout();
    expect(
      (
        (await (
          await server.request('GET', `/api/admin/groups/${groupId}/payout-account`, { token: adminToken })
        ).json()) as TPayoutAccountResponse
      ).payout_account,
    ).toBeNull();

    const cases = [
      [
        { kind: 'bankgiro', account_number: '9991-2347', holder_name: 'Ekskolans föräldraförening' },
        'Bankgiro 9991-2347',
        '99912347',
        null,
      ],
      [{ kind: 'plusgiro', account_number: '55 51 2-8', holder_name: 'IK Ek' }, 'Plusgiro 55512-8', '555128', null],
      [
        { kind: 'bank', clearing_number: '6000', account_number: '123 456 789', holder_name: 'Ekskolan' },
        'Handelsbanken 6000, 123 456 789',
        '123456789',
        '6000',
      ],
    ] as const;
    for (const [body, display, digits, clearing] of cases) {
      const response = await put(groupId, body);
      expect(response.status).toBe(200);
      const { payout_account } = (await response.json()) as TSetPayoutAccountResponse;
      expect(payout_account).toMatchObject({
        kind: body.kind,
        account_number: digits,
        clearing_number: clearing,
        holder_name: body.holder_name,
        display,
      });
      const read = (await (
        await server.request('GET', `/api/admin/groups/${groupId}/payout-account`, { token: adminToken })
      ).json()) as TPayoutAccountResponse;
      expect(read.payout_account).toEqual(payout_account);
    }
    const logged = await sqlRows<{ details: { account: string } }>(
      server.app.db,
      sql`select details from audit_entries where action = 'group.payout_account' and target_id = ${String(groupId)} order by id`,
    );
    expect(logged.map((entry) => entry.details.account)).toEqual([
      'Bankgiro som slutar på 2347',
      'Plusgiro som slutar på 5128',
      'Bankkonto hos Handelsbanken som slutar på 6789',
    ]);
  });

  it('refuses a number that fails its check at its field, and keeps what was there', async () => {
    const { groupId } = await groupWithPayout();
    await put(groupId, { kind: 'bankgiro', account_number: '99912347', holder_name: 'Skolan' });
    const refusals = [
      [{ kind: 'bankgiro', account_number: '9991-2348', holder_name: 'Skolan' }, 'account_number', 'Bankgironumret stämmer inte'],
      [{ kind: 'plusgiro', account_number: '555129', holder_name: 'Skolan' }, 'account_number', 'Plusgironumret stämmer inte'],
      [
        { kind: 'bank', clearing_number: '9999', account_number: '1234567', holder_name: 'Skolan' },
        'clearing_number',
        'hör inte till någon bank',
      ],
      [{ kind: 'bank', account_number: '1234567', holder_name: 'Skolan' }, 'clearing_number', 'Fyll i clearingnummer'],
      [{ kind: 'bank', clearing_number: '6000', account_number: '123456788', holder_name: 'Skolan' }, 'account_number', 'Handelsbanken'],
      [{ kind: 'bankgiro', account_number: '99912347', holder_name: '' }, 'holder_name', 'Fyll i kontohavarens namn'],
      [{ kind: 'swish', account_number: '99912347', holder_name: 'Skolan' }, 'kind', 'Välj kontotyp'],
    ] as const;
    for (const [body, field, message] of refusals) {
      const response = await put(groupId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = await errorOf(response);
      expect(error.details).toEqual([{ field, message: expect.stringContaining(message) }]);
    }
    const [stored] = await sqlRows<{ account_number: string }>(
      server.app.db,
      sql`select account_number from group_payout_accounts where group_id = ${groupId}`,
    );
    expect(stored!.account_number).toBe('99912347');
    expect((await put(2_000_000_000, { kind: 'bankgiro', account_number: '99912347', holder_name: 'Skolan' })).status).toBe(404);
  });
});

describe('the teacher’s view', () => {
  it('shows the kind, the last four digits and the holder to the group’s admin, and to nobody else of the portal', async () => {
    const path = `/api/group/payout-account?group_id=${demoGroupId}`;
    const teacher = await server.request('GET', path, { token: teacherToken });
    expect(teacher.status).toBe(200);
    expect(await teacher.json()).toEqual({
      payout_account: { masked: 'Bankgiro som slutar på 2347', holder_name: 'Björkskolans föräldraförening' },
    });
    expect((await server.request('GET', path, { token: adminToken })).status).toBe(200);
    for (const token of [sellerToken, otherTeacherToken]) {
      const refused = await server.request('GET', path, { token });
      expect(refused.status).toBe(403);
      expect(JSON.stringify(await refused.json())).not.toContain('2347');
    }
    expect((await server.request('GET', path)).status).toBe(401);
  });
});

describe('marking a payout paid', () => {
  it('is refused while the group has no account, changing nothing, and then keeps the account it was paid to', async () => {
    const { groupId, payoutId } = await groupWithPayout();
    const refused = await server.request('PATCH', `/api/admin/payouts/${payoutId}`, { token: adminToken, body: { status: 'paid' } });
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toMatchObject({
      code: 'PAYOUT_ACCOUNT_MISSING',
      message: expect.stringContaining('saknar utbetalningsuppgifter'),
    });
    const [still] = await sqlRows<{ status: string }>(server.app.db, sql`select status::text from payouts where id = ${payoutId}`);
    expect(still!.status).toBe('draft');

    await put(groupId, { kind: 'bankgiro', account_number: '99912347', holder_name: 'Ekskolans föräldraförening' });
    const listed = (await (
      await server.request('GET', `/api/admin/payouts?group_id=${groupId}`, { token: adminToken })
    ).json()) as TPayout[];
    expect(listed[0]!.receiving_account).toEqual({ display: 'Bankgiro 9991-2347', holder_name: 'Ekskolans föräldraförening' });

    const paid = await server.request('PATCH', `/api/admin/payouts/${payoutId}`, { token: adminToken, body: { status: 'paid' } });
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as TPayout).receiving_account).toEqual({
      display: 'Bankgiro 9991-2347',
      holder_name: 'Ekskolans föräldraförening',
    });

    // The group changes bank afterwards: the paid payout still says where its money went.
    await put(groupId, { kind: 'bank', clearing_number: '6000', account_number: '123456789', holder_name: 'Ekskolan' });
    const after = (await (
      await server.request('GET', `/api/admin/payouts?group_id=${groupId}`, { token: adminToken })
    ).json()) as TPayout[];
    expect(after[0]!.receiving_account).toEqual({ display: 'Bankgiro 9991-2347', holder_name: 'Ekskolans föräldraförening' });
    const pdf = await server.request('GET', `/api/admin/payouts/${payoutId}/export.pdf`, { token: adminToken });
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toMatch(/Mottagarkonto\s+Bankgiro 9991-2347/);
    expect(text).toMatch(/Kontohavare\s+Ekskolans föräldraförening/);

    // Already paid says so, whether or not the group has an account now.
    expect(
      await errorOf(await server.request('PATCH', `/api/admin/payouts/${payoutId}`, { token: adminToken, body: { status: 'paid' } })),
    ).toMatchObject({
      code: 'ALREADY_PAID',
    });
  });
});
