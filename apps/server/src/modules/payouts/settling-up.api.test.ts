import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TCreatePayoutResponse,
  TMeSummaryResponse,
  TOutstandingPayout,
  TPayout,
  TUnattributedOrdersResponse,
} from '@saljportalen/contract';
import { DEMO_TEST_PASSWORD, startTestServer, type TestServer } from '../../../test/test-server.js';
import { sendShopifyWebhook, swedishOrder } from '../../../test/shopify-webhooks.js';
import { insertOrder, sqlRows } from '../../../test/admin-fixtures.js';
import { pdfText } from '../../../test/pdf-tools.js';
import { groups, memberships, orderLines, orders, users } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';

/**
 * Issue 19, the treasurer's points: one amount for a payout (öresavrundning), 'Att reglera' for
 * what no next payout is sure to settle, and an order that arrives with an archived group's link.
 */
let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
  adminToken = await server.login('admin@saljportalen.se');
});
afterAll(() => server.close());

async function createGroup(name: string) {
  const [group] = await server.app.db
    .insert(groups)
    .values({ name, code: crypto.randomBytes(4).toString('hex').toUpperCase() })
    .returning({ id: groups.id });
  return group!.id;
}

/** A seller who can sign in with the demo test password, active in the group. */
async function addSeller(groupId: number, fullName: string) {
  const email = `${crypto.randomUUID()}@test.se`;
  const [user] = await server.app.db
    .insert(users)
    .values({ email, passwordHash: await hashPassword(DEMO_TEST_PASSWORD), fullName, activeGroupId: groupId })
    .returning({ id: users.id });
  const linkCode = crypto.randomBytes(6).toString('hex').toUpperCase();
  const [membership] = await server.app.db
    .insert(memberships)
    .values({ userId: user!.id, groupId, linkCode })
    .returning({ id: memberships.id });
  return { membershipId: membership!.id, email, linkCode };
}

/** One order of one sale line (commission 25 %, as admin-fixtures' insertOrder counts it); returns the order and the line. */
async function addSale(groupId: number, membershipId: number, at: string, amountOre: number) {
  const order = await insertOrder(server.app.db, {
    membership: { id: membershipId, groupId },
    orderedAt: new Date(at),
    lines: [{ amountOre }],
  });
  return { orderId: order.id, lineId: order.lineIds[0]! };
}

/** A refund of the whole sale line, booked at `at`, as the ledger writes one (a negative line reversing it). */
async function refund(sale: { orderId: number; lineId: number }, at: string) {
  const [line] = await sqlRows<{ amount_ore: number; commission_ore: number; group_id: number; membership_id: number }>(
    server.app.db,
    sql`select amount_ore::int, commission_ore::int, group_id, membership_id from order_lines where id = ${sale.lineId}`,
  );
  await server.app.db.insert(orderLines).values({
    orderId: sale.orderId,
    kind: 'refund',
    title: 'Bivaxdukar 3-pack',
    quantity: -1,
    amountOre: -line!.amount_ore,
    commissionOre: -line!.commission_ore,
    groupId: line!.group_id,
    membershipId: line!.membership_id,
    bookedAt: new Date(at),
    reversesLineId: sale.lineId,
  });
  await server.app.db.update(orders).set({ subtotalOre: 0, commissionOre: 0, state: 'refunded' }).where(eq(orders.id, sale.orderId));
}

async function createPayout(groupId: number, from: string, to: string, autoArchive = false) {
  const response = await server.request('POST', '/api/admin/payouts', {
    token: adminToken,
    body: { group_id: groupId, from, to, auto_archive: autoArchive },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as TCreatePayoutResponse;
}

async function outstanding(): Promise<TOutstandingPayout[]> {
  const response = await server.request('GET', '/api/admin/payouts/outstanding', { token: adminToken });
  expect(response.status).toBe(200);
  return (await response.json()) as TOutstandingPayout[];
}

describe('one amount for the treasurer (öresavrundning)', () => {
  it('pays whole kronor: the create answer, the list, the PDF and the CSV show the same Att betala, and the PDF adds up to the öre', async () => {
    const groupId = await createGroup('Klass 4C Öresskolan');
    const seller = await addSeller(groupId, 'Östen Örn');
    await addSale(groupId, seller.membershipId, '2026-08-12T10:00:00Z', 1_173_000);

    const created = await createPayout(groupId, '2026-08-01', '2026-09-30');
    expect(created).toMatchObject({ created: true, amount: 2_933 });

    const listResponse = await server.request('GET', `/api/admin/payouts?group_id=${groupId}`, { token: adminToken });
    const [listed] = (await listResponse.json()) as TPayout[];
    expect(listed).toMatchObject({ id: created.id, total_commission: 2_932.5, rounding: 0.5, amount_to_pay: 2_933 });

    const pdf = await server.request('GET', `/api/admin/payouts/${created.id}/export.pdf`, { token: adminToken });
    expect(pdf.status).toBe(200);
    // No-break spaces (the thousands separator) read as plain ones.
    const text = pdfText(Buffer.from(await pdf.arrayBuffer())).replace(/\u00a0/g, ' ');
    // The lines and their total stay exact; the rounding line brings them to whole kronor.
    expect(text).toMatch(/Totalt\s+1\s+11 730,00 kr\s+2 932,50 kr/);
    expect(text).toMatch(/Öresavrundning\s+0,50 kr/);
    expect(text).toMatch(/Att betala\s+2 933,00 kr/);
    expect(text).not.toMatch(/Att betala\s+2 932,50 kr/);

    const csv = await server.request('GET', `/api/admin/payouts/export.csv?group_id=${groupId}`, { token: adminToken });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename=avrakningar.csv');
    const [header, row, end] = (await csv.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toBe(
      'Avräkning;Grupp;Från;Till;Ordrar;Orderrader;Försäljning inkl. moms (kr);Provision (kr);Öresavrundning (kr);Att betala (kr);Status',
    );
    expect(row).toBe(`${created.id};Klass 4C Öresskolan;2026-08-01;2026-09-30;1;1;11730,00;2932,50;0,50;2933,00;Utkast`);
    expect(end).toBe('');
  });

  it('rounds an amount owed back the same way, away from zero', async () => {
    const groupId = await createGroup('Klass 4D Öresskolan');
    const seller = await addSeller(groupId, 'Åke Ås');
    const sale = await addSale(groupId, seller.membershipId, '2026-05-05T10:00:00Z', 48_200);
    await createPayout(groupId, '2026-05-01', '2026-05-31');
    await refund(sale, '2026-06-03T10:00:00Z');
    const owed = await createPayout(groupId, '2026-06-01', '2026-06-30');
    expect(owed).toMatchObject({ created: true, amount: -121 });
  });
});

describe('Att reglera', () => {
  it('shows per group what no next payout is sure to settle, archived groups included, until a payout settles it', async () => {
    // Still selling: an August payout, then a refund of a settled sale and a new ordinary sale.
    const selling = await createGroup('Klass 5A Regleraskolan');
    const sellingSeller = await addSeller(selling, 'Ada Ek');
    const settledSale = await addSale(selling, sellingSeller.membershipId, '2026-08-05T10:00:00Z', 8_900);
    await createPayout(selling, '2026-08-01', '2026-08-31');
    await refund(settledSale, '2026-09-03T10:00:00Z');
    await addSale(selling, sellingSeller.membershipId, '2026-09-10T10:00:00Z', 10_900);

    // Archived by its payout, then a refund of a settled sale.
    const ended = await createGroup('Klass 9B Regleraskolan');
    const endedSeller = await addSeller(ended, 'Bo Al');
    const endedSale = await addSale(ended, endedSeller.membershipId, '2026-08-06T10:00:00Z', 12_900);
    expect(await createPayout(ended, '2026-08-01', '2026-08-31', true)).toMatchObject({ auto_archived: true });
    await refund(endedSale, '2026-10-01T10:00:00Z');

    // Archived by hand with a sale nobody paid out.
    const never = await createGroup('Klass 3A Regleraskolan');
    const neverSeller = await addSeller(never, 'Cissi Björk');
    await addSale(never, neverSeller.membershipId, '2026-07-07T10:00:00Z', 5_930);
    await server.app.db.update(groups).set({ archived: true }).where(eq(groups.id, never));

    const byGroup = new Map((await outstanding()).map((item) => [item.group_id, item]));
    // The row shows every unsettled line of the group, which is what its days' payout settles
    // (decision 065): the refund owed back and the new sale after it.
    expect(byGroup.get(selling)).toEqual({
      group_id: selling,
      group_name: 'Klass 5A Regleraskolan',
      archived: false,
      lines_count: 2,
      period_from: '2026-09-03',
      period_to: '2026-09-10',
      total_commission: 5,
      rounding: 0,
      amount_to_pay: 5,
      ended_campaign: null,
    });
    expect(byGroup.get(ended)).toMatchObject({ archived: true, lines_count: 1, total_commission: -32.25, amount_to_pay: -32 });
    expect(byGroup.get(never)).toMatchObject({
      archived: true,
      lines_count: 1,
      period_from: '2026-07-07',
      total_commission: 14.83,
      amount_to_pay: 15,
    });

    // A payout over the days shown settles exactly what the row showed, and the group leaves the list.
    for (const [groupId, amount] of [
      [ended, -32],
      [selling, 5],
    ] as const) {
      const item = byGroup.get(groupId)!;
      expect(await createPayout(groupId, item.period_from, item.period_to)).toMatchObject({ created: true, amount });
      expect((await outstanding()).map((row) => row.group_id)).not.toContain(groupId);
    }
  });

  it('is for the superadmin only', async () => {
    expect((await server.request('GET', '/api/admin/payouts/outstanding')).status).toBe(401);
    const seller = await server.login('elsa@demo.se');
    expect((await server.request('GET', '/api/admin/payouts/outstanding', { token: seller })).status).toBe(403);
    expect((await server.request('GET', '/api/admin/payouts/export.csv', { token: seller })).status).toBe(403);
  });
});

describe('an order that arrives with the link of an archived group (decision 027)', () => {
  it('waits under Ordrar utan säljare naming the seller and group, leaves the final figures alone, and settles once assigned', async () => {
    const groupId = await createGroup('Klass 6E Sentskolan');
    const seller = await addSeller(groupId, 'Dana Sent');
    await addSale(groupId, seller.membershipId, '2026-08-06T10:00:00Z', 14_900);
    expect(await createPayout(groupId, '2026-08-01', '2026-08-31', true)).toMatchObject({ auto_archived: true });

    const sellerToken = await server.login(seller.email);
    const before = (await (await server.request('GET', '/api/me/summary', { token: sellerToken })).json()) as TMeSummaryResponse;
    expect(before.group_hint).toMatchObject({ id: groupId, archived: true });
    expect(before.personal).toMatchObject({ total_sales: 149, total_commission: 37.25 });

    const shopifyId = 7_990_000_000_027;
    const order = swedishOrder({ id: shopifyId, name: '#SENT1', refCode: seller.linkCode, createdAt: '2026-10-02T12:00:00+02:00' });
    expect((await sendShopifyWebhook(server.url, 'orders/create', order)).status).toBe(200);

    const [stored] = await sqlRows<{ id: number; membership_id: number | null; ref_code: string }>(
      server.app.db,
      sql`select id::int, membership_id, ref_code from orders where shopify_order_id = ${shopifyId}`,
    );
    expect(stored).toMatchObject({ membership_id: null, ref_code: seller.linkCode });

    const queue = (await (
      await server.request('GET', '/api/admin/orders/unattributed?page_size=200', { token: adminToken })
    ).json()) as TUnattributedOrdersResponse;
    const waiting = queue.items.find((item) => item.order_id === stored!.id);
    expect(waiting).toMatchObject({
      ref_code: seller.linkCode,
      archived_link: { membership_id: seller.membershipId, seller_name: 'Dana Sent', group_id: groupId, group_name: 'Klass 6E Sentskolan' },
    });
    // An ordinary unknown code says nothing of the kind.
    expect(queue.items.filter((item) => item.order_id !== stored!.id && item.archived_link?.group_id === groupId)).toEqual([]);

    const after = (await (await server.request('GET', '/api/me/summary', { token: sellerToken })).json()) as TMeSummaryResponse;
    expect(after.personal).toEqual(before.personal);

    // The superadmin gives it to the seller: it counts, and Att reglera shows it for the archived group.
    const assigned = await server.request('POST', `/api/admin/orders/${stored!.id}/assign`, {
      token: adminToken,
      body: { membership_id: seller.membershipId },
    });
    expect(assigned.status).toBe(200);
    const [commission] = await sqlRows<{ ore: string }>(
      server.app.db,
      sql`select sum(commission_ore)::text as ore from order_lines where order_id = ${stored!.id}`,
    );
    const item = (await outstanding()).find((row) => row.group_id === groupId);
    expect(item).toMatchObject({ archived: true, total_commission: Number(commission!.ore) / 100 });
  });
});
