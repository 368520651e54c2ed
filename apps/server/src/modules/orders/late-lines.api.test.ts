import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sendShopifyWebhook, swedishOrder } from '../../../test/shopify-webhooks.js';
import { stockholmDate, stockholmDayStart } from '../../lib/dates.js';
import { sqlRows } from '../../../test/admin-fixtures.js';

let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
  adminToken = await server.login('admin@saljportalen.se');
});
afterAll(() => server.close());

const rows = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => sqlRows<T>(server.app.db, query);

describe('a line that arrives for a period a payout already covers', () => {
  it('is booked after the latest payout, so the next payout settles it', async () => {
    // Klass 6B has a demo payout covering 95 to 60 days ago; Elsa sells for it.
    const [context] = await rows<{ group_id: number; link_code: string; latest_to: string }>(sql`
      select g.id as group_id, m.link_code, (select max(period_to)::text from payouts where group_id = g.id) as latest_to
      from groups g join memberships m on m.group_id = g.id join users u on u.id = m.user_id
      where g.code = 'BJK6B2' and u.email = 'elsa@demo.se'`);
    const { group_id: groupId, link_code: linkCode, latest_to: latestTo } = context!;
    const seventyDaysAgo = new Date(Date.now() - 70 * 86_400_000);
    const order = swedishOrder({ id: 7_950_000_000_001, refCode: linkCode, createdAt: seventyDaysAgo.toISOString() });
    expect((await sendShopifyWebhook(server.url, 'orders/create', order)).status).toBe(200);

    const lines = await rows<{ booked_at: Date; payout_id: number | null; ordered_at: Date }>(sql`
      select l.booked_at, l.payout_id, o.ordered_at from order_lines l join orders o on o.id = l.order_id
      where o.shopify_order_id = 7950000000001`);
    expect(lines.length).toBeGreaterThan(0);
    const firstOpenInstant = stockholmDayStart(latestTo, 1);
    for (const line of lines) {
      // The order keeps its real date; its lines are booked in the first open period.
      expect(new Date(line.ordered_at).getTime()).toBe(new Date(order.created_at as string).getTime());
      expect(new Date(line.booked_at).getTime()).toBe(firstOpenInstant.getTime());
      expect(line.payout_id).toBeNull();
    }

    const created = await server.request('POST', '/api/admin/payouts', {
      token: adminToken,
      body: { group_id: groupId, from: stockholmDate(firstOpenInstant), to: stockholmDate(new Date()), auto_archive: false },
    });
    expect(created.status).toBe(200);
    const { id: payoutId } = (await created.json()) as { id: number };
    const settled = await rows<{ unsettled: number }>(sql`
      select count(*)::int as unsettled from order_lines l join orders o on o.id = l.order_id
      where o.shopify_order_id = 7950000000001 and l.payout_id is distinct from ${payoutId}`);
    expect(settled[0]!.unsettled).toBe(0);
  });
});
