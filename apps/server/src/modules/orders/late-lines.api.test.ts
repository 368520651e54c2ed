import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestServer, testDbKind, type TestServer } from '../../../test/test-server.js';
import { sendShopifyWebhook, swedishOrder, type SwedishLineItem } from '../../../test/shopify-webhooks.js';
import { stockholmDate, stockholmDayStart } from '../../lib/dates.js';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { pdfText } from '../../../test/pdf-tools.js';

let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
  adminToken = await server.login('admin@saljportalen.se');
});
afterAll(() => server.close());

const rows = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => sqlRows<T>(server.app.db, query);

describe('a line that arrives for a period a payout already covers (issue 30, decision 065)', () => {
  it('is booked on the day it happened, and the next payout settles it as a correction of the earlier one', async () => {
    // Klass 6B has a demo payout covering 95 to 60 days ago; Elsa sells for it.
    const [context] = await rows<{ group_id: number; link_code: string; covering: number }>(sql`
      select g.id as group_id, m.link_code, (select max(id) from payouts where group_id = g.id) as covering
      from groups g join memberships m on m.group_id = g.id join users u on u.id = m.user_id
      where g.code = 'BJK6B2' and u.email = 'elsa@demo.se'`);
    const { group_id: groupId, link_code: linkCode, covering } = context!;
    const seventyDaysAgo = new Date(Date.now() - 70 * 86_400_000);
    const order = swedishOrder({ id: 7_950_000_000_001, refCode: linkCode, createdAt: seventyDaysAgo.toISOString() });
    expect((await sendShopifyWebhook(server.url, 'orders/create', order)).status).toBe(200);

    const lines = await rows<{ booked_at: Date; payout_id: number | null }>(sql`
      select l.booked_at, l.payout_id from order_lines l join orders o on o.id = l.order_id
      where o.shopify_order_id = 7950000000001`);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      // On its own day, inside the paid period: never moved to a day it did not happen on.
      expect(new Date(line.booked_at).getTime()).toBe(seventyDaysAgo.getTime());
      expect(line.payout_id).toBeNull();
    }

    // 'Att reglera' shows the group, and its period is the lines' own days, not the future.
    const outstanding = await server.request('GET', '/api/admin/payouts/outstanding', { token: adminToken });
    const row = ((await outstanding.json()) as { group_id: number; period_from: string; period_to: string }[]).find(
      (item) => item.group_id === groupId,
    );
    expect(row).toBeDefined();
    expect(row!.period_to <= stockholmDate(new Date())).toBe(true);

    // A payout of a later period settles it, as a correction of the payout that covered its day.
    const created = await server.request('POST', '/api/admin/payouts', {
      token: adminToken,
      body: {
        group_id: groupId,
        from: stockholmDate(new Date(Date.now() - 5 * 86_400_000)),
        to: stockholmDate(new Date()),
        auto_archive: false,
      },
    });
    expect(created.status).toBe(200);
    const { id: payoutId } = (await created.json()) as { id: number };
    const settled = await rows<{ unsettled: number }>(sql`
      select count(*)::int as unsettled from order_lines l join orders o on o.id = l.order_id
      where o.shopify_order_id = 7950000000001 and l.payout_id is distinct from ${payoutId}`);
    expect(settled[0]!.unsettled).toBe(0);
    const pdf = await server.request('GET', `/api/admin/payouts/${payoutId}/export.pdf`, { token: adminToken });
    expect(pdf.status).toBe(200);
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain(`Rättelse av avräkning nr ${covering}`);
  });

  it('books a cancellation on the day it came, never tomorrow, even after a payout that ends today', async () => {
    // IK Sävedalen F12: an order today, paid out today, cancelled today.
    const [context] = await rows<{ group_id: number; link_code: string }>(sql`
      select g.id as group_id, m.link_code from groups g join memberships m on m.group_id = g.id join users u on u.id = m.user_id
      where g.code = 'SFKP24' and u.email = 'elsa@demo.se'`);
    const { group_id: groupId, link_code: linkCode } = context!;
    const today = stockholmDate(new Date());
    const placed = new Date(Date.now() - 60_000);
    const order = swedishOrder({ id: 7_950_000_000_003, refCode: linkCode, createdAt: placed.toISOString() });
    expect((await sendShopifyWebhook(server.url, 'orders/create', order)).status).toBe(200);
    const paid = await server.request('POST', '/api/admin/payouts', {
      token: adminToken,
      body: { group_id: groupId, from: stockholmDate(new Date(Date.now() - 400 * 86_400_000)), to: today, auto_archive: false },
    });
    expect(paid.status).toBe(200);
    const { id: paidId } = (await paid.json()) as { id: number };
    const cancelled = {
      ...order,
      cancelled_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      financial_status: 'voided',
    };
    expect((await sendShopifyWebhook(server.url, 'orders/cancelled', cancelled)).status).toBe(200);

    const cancellations = await rows<{ booked_at: Date }>(sql`
      select l.booked_at from order_lines l join orders o on o.id = l.order_id
      where o.shopify_order_id = 7950000000003 and l.kind = 'cancellation'`);
    expect(cancellations.length).toBeGreaterThan(0);
    for (const cancellation of cancellations) {
      expect(stockholmDate(new Date(cancellation.booked_at))).toBe(today);
      expect(new Date(cancellation.booked_at).getTime()).toBeLessThanOrEqual(Date.now());
    }

    // The row's 'Avräkna' (its own days) settles exactly what the row shows: the cancellation.
    const outstanding = await server.request('GET', '/api/admin/payouts/outstanding', { token: adminToken });
    const row = (
      (await outstanding.json()) as {
        group_id: number;
        lines_count: number;
        total_commission: number;
        amount_to_pay: number;
        period_from: string;
        period_to: string;
      }[]
    ).find((item) => item.group_id === groupId)!;
    expect(row).toMatchObject({ lines_count: cancellations.length, period_from: today, period_to: today });
    expect(row.total_commission).toBeLessThan(0);
    const correction = await server.request('POST', '/api/admin/payouts', {
      token: adminToken,
      body: { group_id: groupId, from: row.period_from, to: row.period_to, auto_archive: false },
    });
    const made = (await correction.json()) as { id: number; amount: number };
    expect(made.amount).toBe(row.amount_to_pay);
    const [stored] = await rows<{ lines_count: number; orders_count: number }>(
      sql`select lines_count, orders_count from payouts where id = ${made.id}`,
    );
    // The cancelled order is no order to count (one definition of an order count, issue 30).
    expect(stored).toEqual({ lines_count: cancellations.length, orders_count: 0 });
    expect(paidId).toBeLessThan(made.id);
  });

  // PostgreSQL only: PGlite runs one statement at a time, so nothing can wait for a lock there.
  it.runIf(testDbKind === 'postgres')(
    'waits for a payout being created, stays on its day outside it, and is left for the next payout to correct',
    async () => {
      // IK Sävedalen F12 has no payout yet; Elsa sells for it too.
      const [context] = await rows<{ group_id: number; link_code: string }>(sql`
        select g.id as group_id, m.link_code from groups g join memberships m on m.group_id = g.id join users u on u.id = m.user_id
        where g.code = 'SFKP24' and u.email = 'elsa@demo.se'`);
      const { group_id: groupId, link_code: linkCode } = context!;
      const now = new Date();
      const first: SwedishLineItem = {
        id: 7_950_000_100_001,
        productId: null,
        sku: 'SP-001',
        title: 'Bivaxdukar 3-pack',
        price: '149.00',
        quantity: 1,
      };
      const second: SwedishLineItem = {
        id: 7_950_000_100_002,
        productId: null,
        sku: 'SP-002',
        title: 'Ekologiskt kaffe 500 g',
        price: '119.00',
        quantity: 1,
      };
      const order = (lineItems: SwedishLineItem[], updatedAt: Date) =>
        swedishOrder({
          id: 7_950_000_000_002,
          refCode: linkCode,
          createdAt: now.toISOString(),
          updatedAt: updatedAt.toISOString(),
          lineItems,
        });
      expect((await sendShopifyWebhook(server.url, 'orders/create', order([first], now))).status).toBe(200);

      // A payout of the group being created as create-payout creates one: the group row locked for
      // update, the payout inserted and the period's lines settled, not yet committed. The order's
      // update, which adds a line, arrives meanwhile and must wait for the group.
      const periodFrom = stockholmDate(new Date(now.getTime() - 86_400_000));
      const periodTo = stockholmDate(now);
      const delivered = await server.app.db.transaction(async (tx) => {
        await tx.execute(sql`select id from groups where id = ${groupId} for update`);
        const [payout] = await sqlRows<{ id: number }>(
          tx,
          sql`insert into payouts (group_id, period_from, period_to, orders_count, lines_count, sales_ore, commission_ore)
              values (${groupId}, ${periodFrom}, ${periodTo}, 0, 0, 0, 0) returning id`,
        );
        await tx.execute(sql`
          update order_lines set payout_id = ${payout!.id}
          where group_id = ${groupId} and payout_id is null
            and booked_at >= ${stockholmDayStart(periodFrom)} and booked_at < ${stockholmDayStart(periodTo, 1)}`);
        const pending = sendShopifyWebhook(server.url, 'orders/updated', order([first, second], new Date(now.getTime() + 60_000)));
        await eventually(async () => {
          // A transaction keeps its first look at pg_stat_activity unless told to forget it.
          await tx.execute(sql`select pg_stat_clear_snapshot()`);
          const [row] = await sqlRows<{ waiting: number }>(
            tx,
            sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          );
          return row!.waiting >= 1;
        }, 30_000);
        return { pending };
      });
      expect((await delivered.pending).status).toBe(200);

      const lines = await rows<{ shopify_line_id: string; booked_at: Date; payout_id: number | null }>(sql`
        select l.shopify_line_id::text, l.booked_at, l.payout_id from order_lines l join orders o on o.id = l.order_id
        where o.shopify_order_id = 7950000000002 order by l.shopify_line_id`);
      expect(lines.map((line) => [line.shopify_line_id, line.payout_id !== null, new Date(line.booked_at).getTime()])).toEqual([
        // The first line was settled by the payout; the second, sold inside its period, stays on
        // its own day, unsettled: the next payout takes it as a correction (decision 065).
        [String(first.id), true, now.getTime()],
        [String(second.id), false, now.getTime()],
      ]);
    },
  );
});
