/** The demo data set (spec: demo seed), on an empty database of either kind. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../test/admin-fixtures.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { generateDemoPassword } from './demo-password.js';
import { DEMO_LOGINS, hasDemoData, seedDemoData } from './seed.js';

let server: TestServer;
const now = new Date();
const password = generateDemoPassword();
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const count = async (query: ReturnType<typeof sql>) => Number((await sqlRows<{ n: number }>(server.app.db, query))[0]!.n);

describe('seedDemoData', () => {
  it('fills an empty database with the demo set, and leaves it alone the second time', async () => {
    expect(await hasDemoData(server.app.db)).toBe(false);
    expect(await seedDemoData(server.app.db, { password, now })).toBe(true);
    expect(await seedDemoData(server.app.db, { password: generateDemoPassword(), now })).toBe(false);
    expect(await hasDemoData(server.app.db)).toBe(true);
  });

  it('gives every demo login the password it was given, and no other', async () => {
    expect(password).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(password).not.toBe(generateDemoPassword());
    for (const login of DEMO_LOGINS) expect(await server.login(login.email, password)).toBeTruthy();
    const refused = await server.request('POST', '/api/auth/login', { body: { email: DEMO_LOGINS[2].email, password: 'demo1234' } });
    expect(refused.status).toBe(401);
  });

  it('has a superadmin, three or more groups of which exactly one archived, and ~30 sellers with group admins among them', async () => {
    expect(await count(sql`select count(*) as n from users where is_superadmin`)).toBe(1);
    const [groups] = await sqlRows<{ total: number; archived: number }>(
      server.app.db,
      sql`select count(*)::int as total, (count(*) filter (where archived))::int as archived from groups`,
    );
    expect(groups!.total).toBeGreaterThanOrEqual(3);
    expect(groups!.archived).toBe(1);

    const sellers = await count(sql`select count(distinct user_id) as n from memberships`);
    expect(sellers).toBeGreaterThanOrEqual(25);
    expect(sellers).toBeLessThanOrEqual(40);
    // Every group has its teacher or leader as admin.
    expect(await count(sql`select count(distinct group_id) as n from memberships where role = 'admin'`)).toBe(groups!.total);
    expect(await count(sql`select count(*) as n from (select user_id from memberships group by user_id having count(*) = 2) two`)).toBe(1);
  });

  it('has ~10 products and a few hundred orders over the last 90 days, every one attributed to a seller', async () => {
    const products = await count(sql`select count(*) as n from products`);
    expect(products).toBeGreaterThanOrEqual(8);
    expect(products).toBeLessThanOrEqual(12);

    const [orders] = await sqlRows<{ total: number; unattributed: number; outside: number }>(
      server.app.db,
      sql`select count(*)::int as total,
                 (count(*) filter (where membership_id is null or group_id is null))::int as unattributed,
                 (count(*) filter (where ordered_at > ${now.toISOString()}::timestamptz
                   or ordered_at <= ${now.toISOString()}::timestamptz - interval '90 days'))::int as outside
          from orders`,
    );
    expect(orders!.total).toBeGreaterThanOrEqual(150);
    expect(orders!.total).toBeLessThan(1000);
    expect(orders).toMatchObject({ unattributed: 0, outside: 0 });
  });

  it('has one draft and one paid payout', async () => {
    const statuses = await sqlRows<{ status: string }>(server.app.db, sql`select status from payouts order by status`);
    expect(statuses).toEqual([{ status: 'draft' }, { status: 'paid' }]);
  });
});

describe('seedDemoData on a database that is not empty', () => {
  // A real install's first account (SUPERADMIN_EMAIL, a restore) comes before any group: demo
  // accounts with a printed password must never be added beside it.
  it.each([
    [
      'an account but no group',
      sql`insert into users (email, password_hash, full_name, is_superadmin) values ('chef@skolan.se', 'hash', 'Chef', true)`,
    ],
    ['a group but no account', sql`insert into groups (name, code) values ('Klass 1A', 'KLS1A2')`],
  ])('adds nothing to a database with %s', async (_, statement) => {
    const other = await startTestServer();
    try {
      await other.app.db.execute(statement);
      expect(await seedDemoData(other.app.db, { password, now })).toBe(false);
      const [counts] = await sqlRows<{ users: number; groups: number }>(
        other.app.db,
        sql`select (select count(*) from users)::int as users, (select count(*) from groups)::int as groups`,
      );
      expect(counts!.users + counts!.groups).toBe(1);
      expect(await hasDemoData(other.app.db)).toBe(false);
    } finally {
      await other.close();
    }
  });
});
