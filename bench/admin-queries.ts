/**
 * The superadmin calls at the size the product is built for (budget: p99 ≤ 100 ms): 2 000 groups,
 * 60 000 sellers, 1 000 000 orders with 2 000 000 lines over a year, on a fresh PostgreSQL
 * database (TEST_POSTGRES_URL, default the local test server). Prints figures; asserts nothing.
 *   node --import tsx bench/admin-queries.ts [runs]
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.js';
import { createPostgresDatabase } from '../apps/server/test/test-server.js';
import { loadOverview } from '../apps/server/src/modules/figures/load-overview.js';
import { listGroups } from '../apps/server/src/modules/figures/group-rows.js';
import { loadGroupDetail } from '../apps/server/src/modules/groups/load-group-detail.js';
import { exportGroupCsv } from '../apps/server/src/modules/groups/export-group-csv.js';
import { listSellers } from '../apps/server/src/modules/admin/sellers/list-sellers.js';
import { listSellerOrders } from '../apps/server/src/modules/admin/sellers/list-seller-orders.js';

const runs = Number(process.argv[2] ?? 30);
const GROUPS = 2_000;
const SELLERS = 60_000;
const ORDERS = 1_000_000;

const postgres = await createPostgresDatabase();
const database = await openDatabase({ databaseUrl: postgres.url });
const { db } = database;
const silent = { info() {}, error() {} } as never;

try {
  let start = performance.now();
  await db.execute(sql`insert into groups (name, code, archived)
    select 'Grupp ' || i, 'B' || lpad(i::text, 5, '0'), i % 10 = 0 from generate_series(1, ${GROUPS}) i`);
  await db.execute(sql`insert into users (email, password_hash, full_name)
    select 'saljare' || i || '@bench.se', 'x', 'Säljare ' || i from generate_series(1, ${SELLERS}) i`);
  await db.execute(sql`insert into memberships (user_id, group_id, role, link_code)
    select u.id, 1 + (u.id - 1) % ${GROUPS}, case when u.id <= ${GROUPS} then 'admin'::membership_role else 'seller'::membership_role end, 'L' || u.id
    from users u`);
  await db.execute(sql`insert into orders (shopify_order_id, order_name, ordered_at, membership_id, group_id, subtotal_ore, commission_ore, state)
    select 7000000000000 + i, '#' || i, now() - (i % 365) * interval '1 day' - (i % 86400) * interval '1 second',
           m.id, m.group_id, 0, 0, case when i % 50 = 0 then 'cancelled' else 'paid' end
    from generate_series(1, ${ORDERS}) i join memberships m on m.id = 1 + (i::bigint * 7919) % ${SELLERS}`);
  await db.execute(sql`insert into order_lines (order_id, kind, shopify_line_id, title, quantity, amount_ore, commission_ore, group_id, membership_id, booked_at)
    select o.id, 'sale', s, 'Produkt ' || s, 1, 5900 + (o.id % 50) * 100, (5900 + (o.id % 50) * 100) / 4, o.group_id, o.membership_id, o.ordered_at
    from orders o cross join generate_series(1, 2) s`);
  await db.execute(sql`update orders o set subtotal_ore = t.amount, commission_ore = t.commission
    from (select order_id, sum(amount_ore) amount, sum(commission_ore) commission from order_lines group by order_id) t where t.order_id = o.id`);
  await db.execute(sql`vacuum analyze`);
  console.log(
    `data: ${GROUPS} grupper, ${SELLERS} säljare, ${ORDERS} ordrar, ${2 * ORDERS} orderrader på ${((performance.now() - start) / 1000).toFixed(0)} s`,
  );

  const page = { limit: 50, offset: 0 };
  const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date().toISOString().slice(0, 10);
  const randomGroup = () => 1 + Math.floor(Math.random() * GROUPS);
  const calls: [string, () => Promise<unknown>][] = [
    ['översikt', () => loadOverview(db, {})],
    ['översikt, 30 dagar', () => loadOverview(db, { from, to })],
    ['grupper, sida 1', () => listGroups(db, { status: 'all', ...page })],
    ['grupper, sida 20, arkiverade', () => listGroups(db, { status: 'archived', limit: 50, offset: 950 })],
    ['grupper, sökning', () => listGroups(db, { status: 'all', q: '17', ...page })],
    ['gruppdetalj', () => loadGroupDetail(db, randomGroup())],
    ['säljare i en grupp', () => listSellers(db, { group_id: randomGroup(), status: 'all', sort: 'total_sales', ...page })],
    ['alla säljare efter försäljning', () => listSellers(db, { status: 'all', sort: 'total_sales', ...page })],
    ['alla säljare, 30 dagar, efter ordrar', () => listSellers(db, { status: 'all', sort: 'orders_count', from, to, ...page })],
    ['säljare i arkiverade grupper', () => listSellers(db, { status: 'archived', sort: 'total_commission', ...page })],
    ['en säljares ordrar', () => listSellerOrders(db, { userId: 1 + Math.floor(Math.random() * SELLERS), query: { ...page } })],
    [
      'CSV-export av en grupp (~1 000 rader)',
      async () => {
        const { stream } = await exportGroupCsv(db, { groupId: randomGroup(), log: silent });
        for await (const chunk of stream) void chunk;
      },
    ],
  ];

  const measure = async () => {
    for (const [name, call] of calls) {
      await call();
      const timings: number[] = [];
      for (let i = 0; i < runs; i++) {
        start = performance.now();
        await call();
        timings.push(performance.now() - start);
      }
      timings.sort((a, b) => a - b);
      const at = (share: number) => timings[Math.min(timings.length - 1, Math.floor(share * timings.length))]!.toFixed(1);
      console.log(`  ${name.padEnd(40)} p50 ${at(0.5).padStart(7)} ms   p99 ${at(0.99).padStart(7)} ms`);
    }
  };
  console.log('med schemats index:');
  await measure();
  // The index the report proposes to the schema's owner: every figure of a membership or a group
  // read from the index alone, without visiting the orders' rows.
  await db.execute(
    sql`create index orders_membership_figures_idx on orders (membership_id, ordered_at) include (subtotal_ore, commission_ore, state)`,
  );
  await db.execute(
    sql`create index orders_group_figures_idx on orders (group_id, ordered_at) include (subtotal_ore, commission_ore, state)`,
  );
  await db.execute(sql`vacuum analyze orders`);
  console.log('med täckande index på orders:');
  await measure();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await database.close();
  // pg's pool.end() resolves before its sockets have closed; dropping the database at once
  // would kill them mid-goodbye.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await postgres.drop();
}
