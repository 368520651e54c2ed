import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCreateGroupResponse, TAdminGroupDetailResponse } from '@saljportalen/contract';
import { membershipOf, sqlRows } from '../../../test/admin-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  token = await server.login('admin@saljportalen.se');
});
afterAll(() => server.close());

// PGlite runs in WebAssembly: writing and reading 100 000 lines takes it tens of seconds.
const SLOW = 180_000;

describe('a group with 100 000 order lines', () => {
  const ORDERS = 50_000;
  let groupId: number;

  beforeAll(async () => {
    const created = await server.request('POST', '/api/admin/groups/create', {
      token,
      body: { group_name: 'Storföreningen', admin: { email: 'elsa@demo.se', password: 'oanvänt', full_name: 'Elsa' } },
    });
    const { group } = (await created.json()) as TCreateGroupResponse;
    groupId = group.id;
    const elsa = await membershipOf(server.app.db, 'elsa@demo.se', group.group_code);
    // A thousand orders share each timestamp, and every timestamp carries microseconds: a batch
    // boundary inside a tie, or a key rounded to milliseconds, would repeat or drop orders.
    await server.app.db.execute(sql`
      insert into orders (shopify_order_id, order_name, ordered_at, membership_id, group_id, subtotal_ore, commission_ore, state)
      select 8000000000000 + i, '#S' || i, timestamptz '2025-01-01 00:00:00.123456+00' + (i / 1000) * interval '1 minute',
             ${elsa.id}, ${groupId}, 0, 0, 'paid'
      from generate_series(1, ${ORDERS}) as i`);
    await server.app.db.execute(sql`
      insert into order_lines (order_id, kind, shopify_line_id, title, quantity, amount_ore, commission_ore, group_id, membership_id, booked_at)
      select o.id, 'sale', s, 'Produkt ' || s, s, (o.id % 97) * 100 + s, ((o.id % 97) * 100 + s) / 4, o.group_id, o.membership_id, o.ordered_at
      from orders o cross join generate_series(1, 2) as s where o.group_id = ${groupId}`);
    await server.app.db.execute(sql`
      update orders o set subtotal_ore = t.amount, commission_ore = t.commission
      from (select order_id, sum(amount_ore) as amount, sum(commission_ore) as commission from order_lines group by order_id) t
      where t.order_id = o.id and o.group_id = ${groupId}`);
  }, SLOW);

  it(
    'exports every line exactly once, in order, with sums equal to the group detail',
    async () => {
      const response = await server.request('GET', `/api/admin/group/${groupId}/export`, { token });
      expect(response.status).toBe(200);
      const rows = parse(Buffer.from(await response.arrayBuffer()), { bom: true, delimiter: ';', columns: true }) as Record<
        string,
        string
      >[];
      expect(rows).toHaveLength(ORDERS * 2);
      const orderLinePairs = new Set(rows.map((row) => `${row['Order']}/${row['Produkt']}`));
      expect(orderLinePairs.size).toBe(ORDERS * 2);
      const toOre = (cell: string) => Math.round(Number(cell.replace(',', '.')) * 100);
      const detail = (await (await server.request('GET', `/api/admin/group/${groupId}`, { token })).json()) as TAdminGroupDetailResponse;
      const [lines] = await sqlRows<{ amount: string; commission: string }>(
        server.app.db,
        sql`select sum(amount_ore) as amount, sum(commission_ore) as commission from order_lines where group_id = ${groupId}`,
      );
      const exportedSales = rows.reduce((sum, row) => sum + toOre(row['Belopp inkl. moms (kr)']!), 0);
      const exportedCommission = rows.reduce((sum, row) => sum + toOre(row['Provision (kr)']!), 0);
      expect(exportedSales).toBe(Number(lines!.amount));
      expect(exportedCommission).toBe(Number(lines!.commission));
      expect(exportedSales / 100).toBe(detail.totals.total_sales);
      expect(exportedCommission / 100).toBe(detail.totals.total_commission);
      const dates = rows.map((row) => row['Orderdatum']!);
      expect(dates[0]).toBe('2025-01-01 01:00');
      expect(dates).toEqual([...dates].sort());
    },
    SLOW,
  );
});
