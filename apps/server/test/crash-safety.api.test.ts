/**
 * Issue 8, crash safety of payouts and of shutdown, on the real server as a child process: a
 * server killed (SIGKILL) while it creates a payout leaves no half payout, and after a restart on
 * the same data dir (PGlite) or database (PostgreSQL) the retried request settles every line
 * exactly once; SIGTERM lets a request already in flight finish before the process exits.
 * (A kill during a webhook delivery: modules/shopify/shopify-crash.api.test.ts.)
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCreatePayoutResponse } from '@saljportalen/contract';
import { openDatabase } from '../src/db/client.js';
import { seedDemoData } from '../src/modules/demo/seed.js';
import { stockholmDate, stockholmDayStart } from '../src/lib/dates.js';
import { DEMO_TEST_PASSWORD, copyTemplateDatabase, createPostgresDatabase, testDbKind } from './test-server.js';
import { sqlRows } from './admin-fixtures.js';
import { freePort, inspectDatabase, spawnServer, type ServerData, type SpawnedServer } from './spawned-server.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-crash-payout-'));
let postgres: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
let port: number;
let groupId: number;

/** Enough lines that settling them takes a while, so a kill on PGlite can land inside the transaction. */
const EXTRA_ORDERS = 2000;
const LINES_PER_ORDER = 5;

const data = (): ServerData => ({ dataDir, databaseUrl: postgres?.url });
const inspect = <T>(statement: SQL) => inspectDatabase<T>(data(), statement);
const today = stockholmDate(new Date());
const monthAgo = stockholmDate(new Date(Date.now() - 30 * 86_400_000));
const payoutRequest = () => ({ group_id: groupId, from: monthAgo, to: today, auto_archive: true });

async function superadminToken(server: SpawnedServer): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@saljportalen.se', password: 'demo1234' }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

async function createPayout(server: SpawnedServer, token: string): Promise<TCreatePayoutResponse> {
  const response = await fetch(`${server.url}/api/admin/payouts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(payoutRequest()),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as TCreatePayoutResponse;
}

/** What the test group's settlement looks like in the database right now. */
async function settlement() {
  const [row] = await inspect<{
    payouts: number;
    settled: number;
    unsettled: number;
    archived: boolean;
    archive_audits: number;
    payout_audits: number;
  }>(sql`
    select (select count(*) from payouts where group_id = ${groupId} and period_to = ${today})::int as payouts,
           (select count(*) from order_lines l join payouts p on p.id = l.payout_id
             where p.group_id = ${groupId} and p.period_to = ${today})::int as settled,
           (select count(*) from order_lines where group_id = ${groupId} and payout_id is null
             and booked_at >= ${stockholmDayStart(monthAgo).toISOString()}::timestamptz
             and booked_at < ${stockholmDayStart(today, 1).toISOString()}::timestamptz)::int as unsettled,
           (select archived from groups where id = ${groupId}) as archived,
           (select count(*) from audit_entries where action = 'group.archive' and target_id = ${String(groupId)})::int as archive_audits,
           (select count(*) from audit_entries a join payouts p on a.target_id = p.id::text
             where a.action = 'payout.create' and p.group_id = ${groupId} and p.period_to = ${today})::int as payout_audits`);
  return row!;
}

beforeAll(async () => {
  port = await freePort();
  // A copy of the run's seeded database (the server need not start on an empty one here).
  postgres = testDbKind === 'postgres' ? await createPostgresDatabase('seeded') : undefined;
  if (!postgres) copyTemplateDatabase('seeded', dataDir);
  const database = await openDatabase(postgres ? { databaseUrl: postgres.url } : { dataDir });
  try {
    await seedDemoData(database.db, { password: DEMO_TEST_PASSWORD });
    const [membership] = await sqlRows<{ id: number; group_id: number }>(
      database.db,
      sql`
        select m.id, m.group_id from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
        where u.email = 'elsa@demo.se' and g.code = 'BJK6B2'`,
    );
    groupId = Number(membership!.group_id);
    // Orders of 5 lines of 10 kr each (2,50 kr commission), booked over the last 20 days.
    await database.db.execute(sql`
      with created as (
        insert into orders (shopify_order_id, order_name, ordered_at, membership_id, group_id, subtotal_ore, commission_ore, state)
        select 8800000000000 + n, '#K' || n, now() - (n % 20) * interval '1 day', ${membership!.id}, ${groupId},
               ${LINES_PER_ORDER * 1000}, ${LINES_PER_ORDER * 250}, 'paid'
        from generate_series(1, ${EXTRA_ORDERS}) n
        returning id, ordered_at)
      insert into order_lines (order_id, kind, shopify_line_id, title, quantity, amount_ore, commission_ore, group_id, membership_id, booked_at)
      select created.id, 'sale', created.id * 10 + line, 'Bivaxdukar 3-pack', 1, 1000, 250, ${groupId}, ${membership!.id}, created.ordered_at
      from created, generate_series(1, ${LINES_PER_ORDER}) line`);
  } finally {
    await database.close();
  }
}, 120_000);

afterAll(async () => {
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Sends a request's head with `Expect: 100-continue` and resolves once the server has taken it in. */
async function startRequest(body: string) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    [
      'POST /api/auth/login HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Expect: 100-continue',
      '',
      '',
    ].join('\r\n'),
  );
  // Node answers 100 Continue once it has parsed the head and handed the request to Fastify.
  for (const deadline = Date.now() + 30_000; !received.includes('100 Continue');) {
    if (Date.now() > deadline) throw new Error(`servern svarade aldrig 100 Continue: ${received}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const ended = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return {
    finish: () => {
      socket.write(body);
      return ended;
    },
  };
}

/** Sends a whole sign-in and hangs up at once, as a phone that lost its network would. */
async function signInAndHangUp(body: string) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const head = ['POST /api/auth/login HTTP/1.1', `Host: 127.0.0.1:${port}`, 'Content-Type: application/json'];
  socket.end([...head, `Content-Length: ${Buffer.byteLength(body)}`, '', body].join('\r\n'));
  socket.destroy();
}

/** Whether a new connection to the port is refused, i.e. nobody listens there any more. */
const refused = (target: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.connect(target, '127.0.0.1');
    probe.once('connect', () => {
      probe.destroy();
      resolve(false);
    });
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

describe('crash safety', () => {
  it(
    'settles every line exactly once when the server is killed while it creates a payout, restarted and asked again',
    { timeout: 300_000 },
    async () => {
      const before = await settlement();
      expect(before).toMatchObject({ payouts: 0, settled: 0, archived: false, payout_audits: 0 });
      expect(before.unsettled).toBeGreaterThanOrEqual(EXTRA_ORDERS * LINES_PER_ORDER);

      let server = await spawnServer({ port, data: data() });
      const token = await superadminToken(server);
      let holder: pg.Client | undefined;
      if (postgres) {
        // On PostgreSQL the test holds one of the lines, so the kill certainly lands after the payout
        // row is inserted and before its lines are settled.
        holder = new pg.Client({ connectionString: postgres.url });
        await holder.connect();
        await holder.query('begin');
        await holder.query('select id from order_lines where group_id = $1 and payout_id is null order by id desc limit 1 for update', [
          groupId,
        ]);
      }
      const received = server.waitForLog(
        (entry) => entry.msg === 'incoming request' && (entry.req as { url?: string })?.url === '/api/admin/payouts',
      );
      const answer = createPayout(server, token).then(
        () => 'besvarad',
        () => 'avbruten',
      );
      await received;
      if (holder) {
        for (const deadline = Date.now() + 30_000; ;) {
          // Inside its transaction a session keeps its first look at pg_stat_activity unless told to forget it.
          await holder.query('select pg_stat_clear_snapshot()');
          const { rows } = await holder.query<{ waiting: number }>(
            `select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike 'update "order_lines"%'`,
          );
          if (rows[0]!.waiting > 0) break;
          if (Date.now() > deadline) throw new Error('avräkningen kom aldrig fram till orderraderna');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      await server.kill();
      await holder?.query('rollback');
      await holder?.end();

      // All or nothing: never a payout without its lines, lines without their payout, or one without the other's archiving.
      const afterKill = await settlement();
      const nothing = before;
      const everything = {
        payouts: 1,
        settled: before.unsettled,
        unsettled: 0,
        archived: true,
        archive_audits: before.archive_audits + 1,
        payout_audits: 1,
      };
      expect([nothing, everything]).toContainEqual(afterKill);
      if (postgres) expect({ afterKill, answer: await answer }).toEqual({ afterKill: nothing, answer: 'avbruten' });

      server = await spawnServer({ port, data: data() });
      const retryToken = await superadminToken(server);
      const retried = await createPayout(server, retryToken);
      const again = await createPayout(server, retryToken);
      await server.kill('SIGTERM');

      expect(retried.created).toBe(afterKill.payouts === 0);
      expect(again).toMatchObject({ created: false, raw: { reason: 'no_items_unpaid' } });
      expect(await settlement()).toEqual(everything);
      const [sums] = await inspect<{ payout: number; lines: number; lines_count: number; counted: number }>(sql`
      select p.commission_ore::int as payout, sum(l.commission_ore)::int as lines, p.lines_count, count(l.id)::int as counted
      from payouts p join order_lines l on l.payout_id = p.id
      where p.group_id = ${groupId} and p.period_to = ${today} group by p.id`);
      expect(sums!.payout).toBe(sums!.lines);
      expect(sums!.lines_count).toBe(sums!.counted);
    },
  );

  it('closes the database only after a handler whose caller hung up has finished', { timeout: 300_000 }, async () => {
    const issuedTo = async (email: string) =>
      (
        await inspect<{ issued: number }>(sql`
          select count(*)::int as issued from refresh_tokens r join users u on u.id = r.user_id where u.email = ${email}`)
      )[0]!.issued;
    const before = await issuedTo('elsa@demo.se');
    const server = await spawnServer({ port, data: data() });
    const handling = server.waitForLog(
      (entry) => entry.msg === 'incoming request' && (entry.req as { url?: string })?.url === '/api/auth/login',
    );
    await signInAndHangUp(JSON.stringify({ email: 'elsa@demo.se', password: 'demo1234' }));
    await handling;
    // The caller is gone and its connection closed: only the handler (argon2, then a token) is left.
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });

    const failures = server.logEntries().filter((entry) => Number(entry.level) >= 50);
    expect(failures).toEqual([]);
    expect(await issuedTo('elsa@demo.se')).toBe(before + 1);
  });

  it('finishes a request already in flight when SIGTERM comes, accepts no new one, then exits cleanly', { timeout: 300_000 }, async () => {
    const server = await spawnServer({ port, data: data() });
    const body = JSON.stringify({ email: 'noah@demo.se', password: 'demo1234' });
    const inFlight = await startRequest(body);
    const draining = server.waitForLog((entry) => entry.msg === 'SIGTERM: slutför pågående förfrågningar och stänger');

    server.child.kill('SIGTERM');
    await draining;
    for (const deadline = Date.now() + 30_000; !(await refused(port));) {
      if (Date.now() > deadline) throw new Error('servern tog fortfarande emot nya anslutningar');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The request the server had taken in still gets its whole answer, from a database that is still open.
    const response = await inFlight.finish();
    expect(response).toMatch(/HTTP\/1\.1 200 OK/);
    expect(response).toMatch(/"token":"[^"]+\.[^"]+\.[^"]+"/);
    expect(await server.exited).toEqual({ code: 0, signal: null });

    const [tokens] = await inspect<{ issued: number }>(sql`
      select count(*)::int as issued from refresh_tokens r join users u on u.id = r.user_id where u.email = 'noah@demo.se'`);
    expect(tokens!.issued).toBe(1);
  });
});
