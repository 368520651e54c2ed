/**
 * `npm run remove-demo-data` (issue 28): the demo accounts and the demo's groups, orders, payouts
 * and products go; nothing real goes with them, on either database.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { DEMO_TEST_PASSWORD, startTestServer, type TestServer } from '../../../test/test-server.js';
import { ensureSuperadmin } from '../auth/ensure-superadmin.js';
import { removeDemoData } from './remove-demo-data.js';
import { DEMO_GROUPS, DEMO_LOGINS, DEMO_SIGN_IN_NAMES, findDemoAccounts } from './seed.js';
import { hashPassword } from '../../lib/passwords.js';
import { createPayout } from '../payouts/create-payout.js';
import { stockholmDate } from '../../lib/dates.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function seeded(): Promise<TestServer> {
  const server = await startTestServer({ seed: true });
  servers.push(server);
  return server;
}

type Counts = Record<'users' | 'groups' | 'memberships' | 'orders' | 'lines' | 'payouts' | 'products' | 'figures', number>;
async function counts(server: TestServer): Promise<Counts> {
  const [row] = await sqlRows<Counts>(
    server.app.db,
    sql`select (select count(*) from users)::int as users, (select count(*) from groups)::int as groups,
               (select count(*) from memberships)::int as memberships, (select count(*) from orders)::int as orders,
               (select count(*) from order_lines)::int as lines, (select count(*) from payouts)::int as payouts,
               (select count(*) from products)::int as products,
               ((select count(*) from group_figures) + (select count(*) from membership_figures))::int as figures`,
  );
  return row!;
}

const signIn = (server: TestServer, email: string, password: string) =>
  server.request('POST', '/api/auth/login', { body: { email, password } }).then((response) => response.status);

const groupId = async (server: TestServer, code: string) =>
  (await sqlRows<{ id: number }>(server.app.db, sql`select id from groups where code = ${code}`))[0]!.id;

describe('removeDemoData', () => {
  it('removes the whole demo data set of a portal that was only ever a demo, and says what it removed', async () => {
    const server = await seeded();
    const before = await counts(server);
    const removal = await removeDemoData(server.app.db);
    expect(removal).toEqual({
      removedAccounts: expect.arrayContaining([...DEMO_SIGN_IN_NAMES]),
      lockedAccounts: [],
      removedGroups: DEMO_GROUPS.map((group) => group.name),
      keptGroups: [],
      orders: before.orders,
      payouts: 2,
      products: 10,
    });
    expect(removal.removedAccounts).toHaveLength(DEMO_SIGN_IN_NAMES.length);
    expect(await counts(server)).toEqual({ users: 0, groups: 0, memberships: 0, orders: 0, lines: 0, payouts: 0, products: 0, figures: 0 });
    expect(await signIn(server, DEMO_LOGINS[0].email, DEMO_TEST_PASSWORD)).toBe(401);

    // The audit log says it happened, with counts and no addresses.
    const audit = await sqlRows<{ target_type: string; details: Record<string, number> }>(
      server.app.db,
      sql`select target_type, details from audit_entries where action = 'demo.remove'`,
    );
    expect(audit).toEqual([
      { target_type: 'demo_data', details: expect.objectContaining({ removedAccounts: DEMO_SIGN_IN_NAMES.length, orders: before.orders }) },
    ]);
    expect(JSON.stringify(audit)).not.toContain('@');

    // A second run finds nothing to remove.
    expect(await removeDemoData(server.app.db)).toMatchObject({ removedAccounts: [], removedGroups: [], orders: 0, products: 0 });
  });

  it('keeps what is real: its accounts, a demo group used for real with its orders and payouts, and locks the demo accounts they point at', async () => {
    const server = await seeded();
    const db = server.app.db;
    // Real: a superadmin, a seller who joined class 6B with its code, an order from the shop in
    // the football team, and a payout the real superadmin made for the scouts.
    expect(await ensureSuperadmin(db, { email: 'drift@skolan.se', password: 'Drift-Lösen-1' })).toBe('created');
    const [superadmin] = await sqlRows<{ id: number }>(db, sql`select id from users where email = 'drift@skolan.se'`);
    const [seller] = await sqlRows<{ id: number }>(
      db,
      sql`insert into users (email, password_hash, full_name) values ('vera@skolan.se', ${await hashPassword('Veras-Lösen-1')}, 'Vera Riktig') returning id`,
    );
    await db.execute(
      sql`insert into memberships (user_id, group_id, role, link_code) values (${seller!.id}, ${await groupId(server, 'BJK6B2')}, 'seller', 'RIKTIG01')`,
    );
    const team = await groupId(server, 'SFKP24');
    const [teamMember] = await sqlRows<{ id: number }>(db, sql`select id from memberships where group_id = ${team} limit 1`);
    await db.execute(
      sql`insert into orders (shopify_order_id, order_name, ordered_at, membership_id, group_id, subtotal_ore, commission_ore, state, source_event_id)
          values (6100000000001, '#9001', now(), ${teamMember!.id}, ${team}, 14900, 3725, 'paid', 1)`,
    );
    const scouts = await groupId(server, 'SCT482');
    const payout = await createPayout(db, {
      groupId: scouts,
      from: stockholmDate(new Date(Date.now() - 120 * 86_400_000)),
      to: stockholmDate(new Date()),
      autoArchive: false,
      actorUserId: superadmin!.id,
    });
    expect(payout.created).toBe(true);
    const [archivedClassOrders] = await sqlRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from orders where group_id = (select id from groups where code = 'EK9A34')`,
    );
    const before = await counts(server);

    const removal = await removeDemoData(db);
    expect(removal.removedGroups).toEqual(['Klass 9A Ekskolan']);
    expect(removal.keptGroups.sort()).toEqual(['IK Sävedalen F12', 'Klass 6B Björkskolan', 'Scoutkåren Tallen']);
    expect(removal).toMatchObject({ orders: archivedClassOrders!.n, payouts: 1, products: 10 });
    // The archived class's admin and sellers, and the demo superadmin, had nothing real: deleted.
    expect(removal.removedAccounts).toEqual(expect.arrayContaining([DEMO_LOGINS[0].email, 'mentor@ekskolan.se']));
    expect(removal.lockedAccounts).toEqual(expect.arrayContaining([DEMO_LOGINS[1].email, DEMO_LOGINS[2].email, 'tranare@savedalen.se']));
    expect(removal.removedAccounts.length + removal.lockedAccounts.length).toBe(DEMO_SIGN_IN_NAMES.length);

    // Nothing real is gone: the accounts sign in, the shop's order and the real payout are there.
    expect(await signIn(server, 'drift@skolan.se', 'Drift-Lösen-1')).toBe(200);
    expect(await signIn(server, 'vera@skolan.se', 'Veras-Lösen-1')).toBe(200);
    const [kept] = await sqlRows<{ order: number; payout: number; lines: number }>(
      db,
      sql`select (select count(*) from orders where shopify_order_id = 6100000000001)::int as order,
                 (select count(*) from payouts where id = ${payout.created ? payout.payoutId : 0})::int as payout,
                 (select count(*) from order_lines where payout_id = ${payout.created ? payout.payoutId : 0})::int as lines`,
    );
    expect(kept).toMatchObject({ order: 1, payout: 1 });
    expect(kept!.lines).toBeGreaterThan(0);
    const after = await counts(server);
    expect(after.users).toBe(before.users - removal.removedAccounts.length);
    expect(after.orders).toBe(before.orders - archivedClassOrders!.n);

    // No demo account is left with the demo password: the kept ones have a password nobody knows.
    for (const email of [...removal.lockedAccounts, ...removal.removedAccounts])
      expect(await signIn(server, email, DEMO_TEST_PASSWORD), email).toBe(401);
    expect(await findDemoAccounts(db)).toEqual([]);
    const [hashes] = await sqlRows<{ distinct: number; locked: number }>(
      db,
      sql`select count(distinct password_hash)::int as distinct, count(*)::int as locked from users where email like '%@demo.se'`,
    );
    expect(hashes!.distinct).toBe(hashes!.locked);
  });
});
