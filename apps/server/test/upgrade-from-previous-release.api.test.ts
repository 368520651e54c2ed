/**
 * An upgrade from the previous release (issue 34 point 6, decision 072): the previous release's
 * database with data (fixtures/previous-release.sql, made from 8f3250b: see fixtures/README.md)
 * is loaded into a fresh database, PGlite or PostgreSQL as TEST_DB says; every figure that release
 * showed is read from it with SQL on its own tables; then today's server starts on it, runs the
 * migrations that came since, and must show the same figures through the calls the portal shows
 * them with, keep its rollups equal to its orders, and sign in every account with its password.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TAdminGroupDetailResponse,
  TAdminGroupListResponse,
  TAdminOverviewResponse,
  TAdminSellerListResponse,
  TGuardianChildrenResponse,
  TMeSummaryResponse,
  TPayoutListResponse,
} from '@saljportalen/contract';
import { migrationState } from '../src/db/client.js';
import { sqlRows } from './admin-fixtures.js';
import { ledgerViolations, rollupMismatches } from './ledger-invariants.js';
import { createPostgresDatabase, startTestServer, testDbKind, type TestServer } from './test-server.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'previous-release.sql');

/** The migrations the previous release had applied (0000–0018). */
const PREVIOUS_RELEASE_MIGRATIONS = 19;

/** The accounts of the fixture, with their passwords (fixtures/README.md); `member`: in a group, with a dashboard. */
const ACCOUNTS = [
  { label: 'demots superadmin', email: 'admin@saljportalen.se', password: 'demo1234', member: false },
  { label: 'demots gruppadmin', email: 'larare@bjorkskolan.se', password: 'demo1234', member: true },
  { label: 'demots säljare i två grupper', email: 'elsa@demo.se', password: 'demo1234', member: true },
  { label: 'demots säljare', email: 'noah@demo.se', password: 'demo1234', member: true },
  { label: 'superadmin från SUPERADMIN_EMAIL', email: 'drift@skolan.se', password: 'drift-losen-123', member: false },
  { label: 'elev under 13', email: 'ebba.barn@exempel.se', password: 'barnets-losen-1', member: true },
  { label: 'vårdnadshavare', email: 'forälder.uppgradering@exempel.se', password: 'foralderns-losen-1', member: false },
] as const;
const CHILD = 'ebba.barn@exempel.se';
const GUARDIAN = 'forälder.uppgradering@exempel.se';

/**
 * The dump as node-postgres and PGlite's exec run it: pg_dump (15.14 and later) wraps it in the
 * psql meta-commands `\restrict <key>` and `\unrestrict <key>`, which only psql knows. Nothing else
 * is changed; the data is INSERTs, not COPY from stdin (fixtures/README.md).
 */
function previousReleaseSql(): string {
  return fs
    .readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => !/^\\(un)?restrict [A-Za-z0-9]+$/.test(line))
    .join('\n');
}

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/** Öre from the API's kronor. */
const ore = (sek: number) => Math.round(sek * 100);

interface Figures {
  sales: number;
  commission: number;
  orders: number;
}

/** What the previous release showed, read with SQL that only knows its schema (0000–0018). */
async function readPreviousRelease(query: Query) {
  const numbers = (row: Record<string, unknown>): Figures => ({
    sales: Number(row.sales),
    commission: Number(row.commission),
    orders: Number(row.orders),
  });
  const memberships = await query(
    `select m.id, m.user_id, m.group_id, u.email, f.sales_ore::text as sales, f.commission_ore::text as commission, f.orders_count as orders,
            coalesce(o.sales, 0)::text as order_sales, coalesce(o.commission, 0)::text as order_commission, coalesce(o.orders, 0) as order_orders
       from memberships m join users u on u.id = m.user_id
       join membership_figures f on f.membership_id = m.id
       left join (select membership_id, sum(subtotal_ore) as sales, sum(commission_ore) as commission,
                         count(*) filter (where state <> 'cancelled')::int as orders
                    from orders group by membership_id) o on o.membership_id = m.id
      order by m.id`,
  );
  const groups = await query(
    `select g.id, g.name, g.code, g.archived, f.sales_ore::text as sales, f.commission_ore::text as commission, f.orders_count as orders,
            f.sellers_count as sellers
       from groups g join group_figures f on f.group_id = g.id order by g.id`,
  );
  const payouts = await query(
    `select id, group_id, status::text as status, period_from::text as period_from, period_to::text as period_to,
            sales_ore::text as sales, commission_ore::text as commission, orders_count as orders, lines_count as lines, paid_at is not null as paid
       from payouts order by id`,
  );
  const [counts] = await query(
    `select (select count(*) from users)::int as users, (select count(*) from groups)::int as groups,
            (select count(*) from memberships)::int as memberships, (select count(*) from orders)::int as orders,
            (select count(*) from order_lines)::int as order_lines, (select count(*) from payouts)::int as payouts,
            (select count(*) from guardian_links where approved_at is not null)::int as approved_guardian_links,
            (select count(*) from drizzle.__drizzle_migrations)::int as migrations`,
  );
  return {
    memberships: memberships.map((row) => ({
      id: Number(row.id),
      userId: Number(row.user_id),
      groupId: Number(row.group_id),
      email: String(row.email),
      shown: numbers(row),
      fromOrders: { sales: Number(row.order_sales), commission: Number(row.order_commission), orders: Number(row.order_orders) },
    })),
    groups: groups.map((row) => ({
      id: Number(row.id),
      name: String(row.name),
      code: String(row.code),
      archived: Boolean(row.archived),
      sellers: Number(row.sellers),
      ...numbers(row),
    })),
    payouts: payouts.map((row) => ({
      id: Number(row.id),
      groupId: Number(row.group_id),
      status: String(row.status),
      periodFrom: String(row.period_from),
      periodTo: String(row.period_to),
      lines: Number(row.lines),
      paid: Boolean(row.paid),
      ...numbers(row),
    })),
    counts: counts as Record<string, number>,
  };
}
type PreviousRelease = Awaited<ReturnType<typeof readPreviousRelease>>;

/**
 * The previous release's database, loaded and read: a PostgreSQL database of the test's own, or a
 * PGlite data dir (PGlite's dumpDataDir) for the test server to start from.
 */
async function loadPreviousRelease(): Promise<{
  before: PreviousRelease;
  server: () => Promise<TestServer>;
  drop(): Promise<void>;
}> {
  const dump = previousReleaseSql();
  if (testDbKind === 'postgres') {
    const database = await createPostgresDatabase();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(dump);
      // The dump empties the session's search_path (pg_dump's set_config); the reads below name no schema.
      await client.query('reset all');
      const before = await readPreviousRelease(async (text) => (await client.query(text)).rows as Record<string, unknown>[]);
      return { before, server: () => startTestServer({ env: { DATABASE_URL: database.url } }), drop: database.drop };
    } finally {
      await client.end();
    }
  }
  const pglite = await PGlite.create();
  try {
    await pglite.exec(dump);
    await pglite.exec('reset all');
    const before = await readPreviousRelease(async (text) => (await pglite.query<Record<string, unknown>>(text)).rows);
    const dataDir = await pglite.dumpDataDir('none');
    return { before, server: () => startTestServer({ loadDataDir: dataDir }), drop: async () => {} };
  } finally {
    await pglite.close();
  }
}

let before: PreviousRelease;
let server: TestServer;
let drop: () => Promise<void> = async () => {};
let admin: string;

beforeAll(async () => {
  const loaded = await loadPreviousRelease();
  before = loaded.before;
  drop = loaded.drop;
  server = await loaded.server();
  admin = await server.login('drift@skolan.se', 'drift-losen-123');
});
afterAll(async () => {
  await server?.close();
  await drop();
});

async function get<T>(token: string, url: string): Promise<T> {
  const response = await server.request('GET', url, { token });
  expect(response.status, `${url}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as T;
}

describe(`an upgrade from the previous release (8f3250b) on ${testDbKind}`, () => {
  it('the fixture is the previous release: 19 migrations, demo figures whose rollups equal its orders', () => {
    expect(before.counts.migrations).toBe(PREVIOUS_RELEASE_MIGRATIONS);
    expect(before.counts).toMatchObject({ groups: 4, approved_guardian_links: 1, payouts: 2 });
    expect(before.memberships.filter((membership) => membership.shown.orders > 0).length).toBeGreaterThan(20);
    for (const membership of before.memberships) expect(membership.shown, `medlemskap ${membership.id}`).toEqual(membership.fromOrders);
  });

  it('runs every migration since, and the rows are all still there', async () => {
    const state = await migrationState(server.app.db);
    expect(state.applied).toBe(state.known);
    expect(state.known).toBeGreaterThan(PREVIOUS_RELEASE_MIGRATIONS);
    const [after] = await sqlRows<Record<string, number>>(
      server.app.db,
      sql`select (select count(*) from users)::int as users, (select count(*) from groups)::int as groups,
                 (select count(*) from memberships)::int as memberships, (select count(*) from orders)::int as orders,
                 (select count(*) from order_lines)::int as order_lines, (select count(*) from payouts)::int as payouts,
                 (select count(*) from guardian_links where approved_at is not null)::int as approved_guardian_links`,
    );
    const { migrations: _migrations, ...rows } = before.counts;
    expect(after, 'antalet användare, grupper, medlemskap, ordrar, orderrader, avräkningar och godkända barn').toEqual(rows);
  });

  it("every seller's sales, commission and order count survive (the superadmin's seller list)", async () => {
    const list = await get<TAdminSellerListResponse>(admin, '/api/admin/sellers?limit=500');
    expect(list.total).toBe(before.memberships.length);
    const shown = Object.fromEntries(
      list.items.map((row) => [
        `${row.email} i grupp ${row.group_id}`,
        { sales: ore(row.total_sales), commission: ore(row.total_commission), orders: row.orders_count },
      ]),
    );
    const previous = Object.fromEntries(before.memberships.map((row) => [`${row.email} i grupp ${row.groupId}`, row.shown]));
    expect(shown).toEqual(previous);
  });

  it("every group's totals survive (the superadmin's group list and group detail)", async () => {
    const list = await get<TAdminGroupListResponse>(admin, '/api/admin/groups?status=all&limit=500');
    const listed = list.items
      .map((group) => ({
        id: group.id,
        name: group.name,
        code: group.code,
        archived: group.archived,
        sellers: group.sellers_count,
        sales: ore(group.total_sales),
        commission: ore(group.total_commission),
      }))
      .sort((a, b) => a.id - b.id);
    expect(listed).toEqual(before.groups.map(({ orders: _orders, ...group }) => group));
    for (const group of before.groups) {
      const detail = await get<TAdminGroupDetailResponse>(admin, `/api/admin/group/${group.id}?limit=500`);
      expect(
        {
          sales: ore(detail.totals.total_sales),
          commission: ore(detail.totals.total_commission),
          orders: detail.totals.orders_count,
          sellers: detail.totals.sellers_count,
        },
        `${group.name}s totaler`,
      ).toEqual({ sales: group.sales, commission: group.commission, orders: group.orders, sellers: group.sellers });
    }
  });

  it("the portal's overall totals survive (the superadmin's overview)", async () => {
    const overview = await get<TAdminOverviewResponse>(admin, '/api/admin/overview');
    const sum = (pick: (group: PreviousRelease['groups'][number]) => number) =>
      before.groups.reduce((total, group) => total + pick(group), 0);
    expect({ sales: ore(overview.total_sales), commission: ore(overview.total_commission), orders: overview.orders_count }).toEqual({
      sales: sum((group) => group.sales),
      commission: sum((group) => group.commission),
      orders: sum((group) => group.orders),
    });
  });

  it("every payout's amounts, period and state survive (the superadmin's payouts)", async () => {
    const payouts = await get<TPayoutListResponse>(admin, '/api/admin/payouts?status=all');
    expect(
      payouts
        .map((payout) => ({
          id: payout.id,
          groupId: payout.group_id,
          status: payout.status,
          periodFrom: payout.period_from,
          periodTo: payout.period_to,
          lines: payout.lines_count,
          paid: payout.paid_at !== null,
          sales: ore(payout.total_sales),
          commission: ore(payout.total_commission),
          orders: payout.orders_count,
        }))
        .sort((a, b) => a.id - b.id),
    ).toEqual(before.payouts);
  });

  it('the rollups equal the orders, and the ledger rules hold, after the migrations', async () => {
    const { memberships, groups } = await rollupMismatches(server.app.db);
    expect({ memberships, groups }, 'medlemskap och grupper vars summor skiljer sig från ordrarnas').toEqual({
      memberships: [],
      groups: [],
    });
    expect(await ledgerViolations(server.app.db)).toEqual([]);
  });

  it.each(ACCOUNTS)('$label ($email) still signs in with the password of the previous release', async ({ email, password }) => {
    const response = await server.request('POST', '/api/auth/login', { body: { email, password } });
    expect(response.status, await response.clone().text()).toBe(200);
    const wrong = await server.request('POST', '/api/auth/login', { body: { email, password: `${password}-fel` } });
    expect(wrong.status).toBe(401);
  });

  it("a seller's own figures survive on their dashboard (/api/me/summary)", async () => {
    for (const { email, password } of ACCOUNTS.filter((account) => account.member)) {
      const summary = await get<TMeSummaryResponse>(await server.login(email, password), '/api/me/summary');
      const membership = before.memberships.find((row) => row.email === email && row.groupId === summary.group_hint?.id);
      expect(membership, `${email}s grupp`).toBeDefined();
      expect(
        {
          sales: ore(summary.personal.total_sales),
          commission: ore(summary.personal.total_commission),
          orders: summary.personal.orders_count,
        },
        `${email}s siffror`,
      ).toEqual(membership!.shown);
    }
  });

  it("a guardian's approved child and the child's figures survive (the guardian view)", async () => {
    const guardian = await server.login(GUARDIAN, 'foralderns-losen-1');
    const { children } = await get<TGuardianChildrenResponse>(guardian, '/api/guardian/children');
    const child = before.memberships.find((row) => row.email === CHILD)!;
    // A child of the previous release signs in with an address: no username (issue 31's class-list pupils have one).
    expect(children).toEqual([
      { user_id: child.userId, full_name: 'Ebba Barnsdotter', group_name: 'Klass 6B Björkskolan', username: null },
    ]);
    const summary = await get<TMeSummaryResponse>(guardian, `/api/guardian/children/${child.userId}/summary`);
    expect(child.shown.orders).toBe(1);
    expect({
      sales: ore(summary.personal.total_sales),
      commission: ore(summary.personal.total_commission),
      orders: summary.personal.orders_count,
    }).toEqual(child.shown);
    expect(summary.user.awaiting_guardian_consent).toBe(false);
  });
});
