/** The demo data set (spec: demo seed), on an empty database of either kind. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_TEST_PASSWORD } from '../../../test/test-server.js';
import { DEMO_PASSWORD_FILE, generateDemoPassword, readDemoPassword } from '../../db/demo-password.js';
import { ensureSuperadmin } from '../auth/ensure-superadmin.js';
import { hashPassword } from '../../lib/passwords.js';
import { DEMO_EMAILS, DEMO_LOGINS, DEMO_SIGN_IN_NAMES, demoPasswordOf, findDemoAccounts, hasDemoData, seedDemoData } from './seed.js';

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

describe('findDemoAccounts, the one test of demo data (issue 28)', () => {
  it('finds every account the seed made, by the seed’s addresses and the password hash they share', async () => {
    const found = await findDemoAccounts(server.app.db);
    expect(found.map((account) => account.email).sort()).toEqual([...DEMO_SIGN_IN_NAMES].sort());
    expect(found.filter((account) => account.isSuperadmin).map((account) => account.email)).toEqual([DEMO_LOGINS[0].email]);
    expect(DEMO_EMAILS.length).toBeGreaterThan(30);
  });

  it('takes no account for the demo’s that has a demo address and a password of its own: a real superadmin, a later registration', async () => {
    const other = await startTestServer();
    try {
      expect(await ensureSuperadmin(other.app.db, { email: 'Admin@Saljportalen.se', password: 'ett långt lösenord' })).toBe('created');
      await other.app.db.execute(
        sql`insert into users (email, password_hash, full_name) values ('elsa@demo.se', ${await hashPassword('Elsas-eget-1')}, 'Elsa')`,
      );
      expect(await findDemoAccounts(other.app.db)).toEqual([]);
      expect(await hasDemoData(other.app.db)).toBe(false);
    } finally {
      await other.close();
    }
  });
});

describe('demoPasswordOf: a data dir seeded before the password was generated', () => {
  it('gives the demo accounts a new password, keeps it in the file, and ends their sessions; the next start reads it back', async () => {
    // The test server seeds with demo1234, what older versions gave every demo data set, and keeps no file.
    const old = await startTestServer({ seed: true });
    try {
      expect(DEMO_TEST_PASSWORD).toBe('demo1234');
      const session = await old.login(DEMO_LOGINS[2].email);
      expect(readDemoPassword(old.dataDir)).toBeUndefined();

      const renewed = await demoPasswordOf(old.app.db, old.dataDir);
      expect(renewed.renewed).toBe(true);
      expect(renewed.password).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
      expect(fs.readFileSync(path.join(old.dataDir, DEMO_PASSWORD_FILE), 'utf8').trim()).toBe(renewed.password);
      for (const login of DEMO_LOGINS) {
        const refused = await old.request('POST', '/api/auth/login', { body: { email: login.email, password: 'demo1234' } });
        expect(refused.status, login.email).toBe(401);
        expect(await old.login(login.email, renewed.password)).toBeTruthy();
      }
      expect((await old.request('GET', '/api/account/profile', { token: session })).status).toBe(401);
      // Still the demo's accounts (one shared hash), and the next start finds the kept password.
      expect(await findDemoAccounts(old.app.db)).toHaveLength(DEMO_SIGN_IN_NAMES.length);
      expect(await demoPasswordOf(old.app.db, old.dataDir)).toEqual({ password: renewed.password, renewed: false });
    } finally {
      await old.close();
    }
  });
});
