/**
 * Issue 21, point 5, every core and several machines (decision 026), on PostgreSQL: the real
 * server as processes (spawned-server.ts), the way several machines behind a proxy run it.
 * - Two processes on one PostgreSQL, with one Redis for the limits: wrong passwords spread over
 *   both hit the limit at the same total as on one; one delivery sent to both is one order,
 *   counted once; 20 payout creations spread over both give one payout; a change through one is
 *   in the leaderboard, summary and totals the other answers at once, cache or not.
 * - `WEB_CONCURRENCY=2`: requests are answered by two worker processes (their pids in the log,
 *   nothing in the answers), a worker that dies is replaced, and SIGTERM to the primary drains
 *   both workers: requests they had taken in, held in the database meanwhile, are answered and
 *   stored, and the primary exits 0.
 * On either database: WEB_CONCURRENCY>1 on the embedded database (one process owns its files) is
 * refused in one Swedish line, and a port in use is told once, by the primary, before any worker.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGINS } from '../src/modules/demo/seed.js';
import { sendShopifyWebhook, sendSignedOverHttp, swedishOrder } from './shopify-webhooks.js';
import {
  freePort,
  inspectDatabase,
  serverDataFolder,
  spawnServer,
  startServerToEnd,
  type EndedProcess,
  type LogEntry,
  type ServerData,
  type SpawnedServer,
} from './spawned-server.js';
import { DEMO_TEST_PASSWORD, eventually, testDbKind } from './test-server.js';
import { redisReachable, TEST_REDIS_URL } from './test-redis.js';

const folder = serverDataFolder('sp-every-core-');
const servers: SpawnedServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill()));
  await folder.dispose();
});

const superadmin = DEMO_LOGINS[0].email;
/** The demo's first seller (elsa@demo.se, Klass 6B) sells under DEMO0005 (seed.ts: four group admins come first). */
const seller = { email: DEMO_LOGINS[2].email, refCode: 'DEMO0005' };
let nextOrderId = 7_900_000_000_000 + crypto.randomInt(1_000_000) * 1000;

/** Loopback is a trusted proxy by default: each test speaks from an address of its own, as callers behind the proxy do. */
const randomAddress = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

function login(server: SpawnedServer, email: string, password: string, address = randomAddress()) {
  return fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email, password }),
  });
}

async function tokenFor(server: SpawnedServer, email: string): Promise<string> {
  const response = await login(server, email, DEMO_TEST_PASSWORD);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

async function getJson<T>(server: SpawnedServer, path: string, token: string): Promise<T> {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as T;
}

interface SellerView {
  summary: { user: { id: number }; personal: { total_sales: number; total_commission: number; orders_count: number } };
  totals: { totals: { total_sales: number; total_commission: number; orders_count: number } };
  leaderboard: { items: { user_id: number; sales: number; commission: number }[] };
}

/** What the seller's dashboard asks for: their summary, their group's totals and its leaderboard. */
async function sellerView(server: SpawnedServer, token: string): Promise<SellerView> {
  return {
    summary: await getJson(server, '/api/me/summary', token),
    totals: await getJson(server, '/api/group/totals', token),
    leaderboard: await getJson(server, '/api/group/leaderboard-mine', token),
  };
}

const öre = (sek: number) => Math.round(sek * 100);

describe.runIf(testDbKind === 'postgres')('two server processes on one PostgreSQL', () => {
  let data: { a: ServerData; b: ServerData };
  let a: SpawnedServer;
  let b: SpawnedServer;

  // Two servers on one database with one Redis, for every test below (without Redis they are skipped).
  beforeAll(async () => {
    if (!(await redisReachable())) {
      if (process.env.CI) throw new Error(`Redis svarar inte på ${TEST_REDIS_URL}`);
      return;
    }
    const first = await folder.fresh('a');
    data = { a: first, b: { dataDir: `${folder.workDir}/b`, databaseUrl: first.databaseUrl } };
    // One address for both, as behind one proxy: the personal links they answer are the same.
    const env = { RATE_LIMITS: '1', REDIS_URL: TEST_REDIS_URL, PUBLIC_URL: 'http://portal.exempel.se' };
    a = await spawnServer({ port: 0, data: data.a, env });
    servers.push(a);
    b = await spawnServer({ port: 0, data: data.b, env });
    servers.push(b);
  }, 240_000);

  it('share the sign-in limits through Redis: ten wrong passwords over both, then both refuse', async (context) => {
    if (!b) return context.skip();
    // An address of its own for a fresh account name: the counters' keys are this test's alone.
    const email = `delad-${crypto.randomBytes(4).toString('hex')}@exempel.se`;
    const address = randomAddress();
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await login(attempt % 2 ? b : a, email, 'fel-lösenord', address);
      expect(response.status).toBe(401);
    }
    for (const server of [a, b]) {
      const refused = await login(server, email, 'fel-lösenord', address);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    }
    // Counted in Redis, not in the database's own counters (what counts without REDIS_URL).
    const [counted] = await inspectDatabase<{ rows: number }>(data.a, sql`select count(*)::int as rows from rate_limits`);
    expect(counted!.rows).toBe(0);
  });

  it('count a delivery sent to both once, and show the change from either at once', { timeout: 60_000 }, async (context) => {
    if (!b) return context.skip();
    const tokenA = await tokenFor(a, seller.email);
    const tokenB = await tokenFor(b, seller.email);
    // Each process answers once before the change, so that any cache of its own holds the old figures.
    const before = await sellerView(b, tokenB);
    expect(await sellerView(a, tokenA)).toEqual(before);

    const orderId = nextOrderId++;
    const order = swedishOrder({ id: orderId, refCode: seller.refCode });
    const webhookId = crypto.randomUUID();
    // The same delivery to both at once (a retry that reached the other machine), then the order again under another id.
    const answers = await Promise.all([
      sendShopifyWebhook(a.url, 'orders/create', order, { webhookId }),
      sendShopifyWebhook(b.url, 'orders/create', order, { webhookId }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await sendShopifyWebhook(b.url, 'orders/paid', order)).status).toBe(200);

    const [stored] = await inspectDatabase<{ orders: number; lines: number; sales_ore: number; commission_ore: number }>(
      data.a,
      sql`select count(distinct o.id)::int as orders, count(l.id)::int as lines,
                 coalesce(sum(l.amount_ore), 0)::int as sales_ore, coalesce(sum(l.commission_ore), 0)::int as commission_ore
          from orders o left join order_lines l on l.order_id = o.id where o.shopify_order_id = ${String(orderId)}`,
    );
    expect(stored!.orders).toBe(1);
    expect(stored!.lines).toBeGreaterThan(0);

    for (const [server, token] of [
      [b, tokenB],
      [a, tokenA],
    ] as const) {
      const after = await sellerView(server, token);
      expect(öre(after.summary.personal.total_sales)).toBe(öre(before.summary.personal.total_sales) + stored!.sales_ore);
      expect(öre(after.summary.personal.total_commission)).toBe(öre(before.summary.personal.total_commission) + stored!.commission_ore);
      expect(after.summary.personal.orders_count).toBe(before.summary.personal.orders_count + 1);
      expect(öre(after.totals.totals.total_sales)).toBe(öre(before.totals.totals.total_sales) + stored!.sales_ore);
      expect(after.totals.totals.orders_count).toBe(before.totals.totals.orders_count + 1);
      const mine = (view: SellerView) => view.leaderboard.items.find((item) => item.user_id === view.summary.user.id)!;
      expect(öre(mine(after).sales)).toBe(öre(mine(before).sales) + stored!.sales_ore);
    }
    expect(await sellerView(a, tokenA)).toEqual(await sellerView(b, tokenB));
  });

  it('give exactly one payout for 20 creations at once spread over both', { timeout: 60_000 }, async (context) => {
    if (!b) return context.skip();
    const tokens = [await tokenFor(a, superadmin), await tokenFor(b, superadmin)];
    const [group] = await inspectDatabase<{ id: number }>(data.a, sql`select id from groups where code = 'SCT482'`);
    const to = new Date().toISOString().slice(0, 10);
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const response = await fetch(`${[a, b][i % 2]!.url}/api/admin/payouts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i % 2]}` },
          body: JSON.stringify({ group_id: group!.id, from: '2020-01-01', to, auto_archive: false }),
        });
        return { status: response.status, body: (await response.json()) as { created: boolean; raw: { reason: string | null } } };
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((answer) => answer.body.created)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.body.created).map((answer) => answer.body.raw.reason)).toEqual(
      Array(19).fill('no_items_unpaid'),
    );
    const [payouts] = await inspectDatabase<{ payouts: number; unsettled: number }>(
      data.a,
      sql`select (select count(*)::int from payouts where group_id = ${group!.id}) as payouts,
                 (select count(*)::int from order_lines where group_id = ${group!.id} and payout_id is null
                    and booked_at < now() - interval '1 day') as unsettled`,
    );
    expect(payouts).toEqual({ payouts: 1, unsettled: 0 });
  });
});

/** Every line, so far, that `matches` accepts. */
const logged = (server: SpawnedServer, matches: (entry: LogEntry) => boolean) => server.logEntries().filter(matches);

/** One signed orders/create delivery on a connection of its own (so the primary hands each to the next worker). */
function deliverOnNewConnection(port: number, orderId: number): Promise<{ status?: number; error?: string; webhookId: string }> {
  const { request, webhookId } = sendSignedOverHttp({
    port,
    agent: false,
    topic: 'orders/create',
    payload: swedishOrder({ id: orderId, refCode: seller.refCode }),
  });
  return new Promise((resolve) => {
    request.once('response', (response) => {
      response.resume();
      response.once('end', () => resolve({ status: response.statusCode, webhookId }));
    });
    request.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, webhookId }));
  });
}

describe.runIf(testDbKind === 'postgres')('WEB_CONCURRENCY=2', () => {
  it('answers from two workers, replaces one that dies, and drains both on SIGTERM', { timeout: 300_000 }, async () => {
    const data = await folder.fresh('kluster');
    const port = await freePort();
    const server = await spawnServer({ port, data, env: { WEB_CONCURRENCY: '2' } });
    servers.push(server);
    const ready = await eventually(() => logged(server, (entry) => entry.role === 'primary' && entry.workers === 2)[0], 120_000);
    const [firstWorker, secondWorker] = ready.pids as number[];
    expect(new Set([firstWorker, secondWorker, server.child.pid]).size).toBe(3);

    // A worker killed outright is replaced, and the server goes on answering.
    process.kill(secondWorker!, 'SIGKILL');
    const replaced = await eventually(
      () => logged(server, (entry) => entry.msg === 'arbetsprocess startad' && entry.pid !== secondWorker && entry.worker !== 2)[0],
      120_000,
    );
    expect(logged(server, (entry) => entry.msg === 'en arbetsprocess avslutades oväntat: en ny startas')).toHaveLength(1);
    // The primary's line names the worker as `workerPid`: its own `pid` stays the one of the process that wrote it (issue 34).
    const [unexpected] = server.logLines().filter((line) => line.includes('en arbetsprocess avslutades oväntat'));
    expect(unexpected!.match(/"pid":/g)).toHaveLength(1);
    expect(JSON.parse(unexpected!)).toMatchObject({ pid: server.child.pid, workerPid: secondWorker });
    const workers = [firstWorker!, replaced.pid as number];

    // Deliveries held in the database while SIGTERM arrives: each worker has some in hand.
    const lock = new pg.Client({ connectionString: data.databaseUrl });
    await lock.connect();
    const held = 8;
    let deliveries: Promise<{ status?: number; error?: string; webhookId: string }>[] = [];
    try {
      await lock.query('begin');
      await lock.query('lock table webhook_events in access exclusive mode');
      deliveries = Array.from({ length: held }, () => deliverOnNewConnection(port, nextOrderId++));
      await eventually(async () => {
        // A transaction keeps its first look at pg_stat_activity unless told to forget it.
        await lock.query('select pg_stat_clear_snapshot()');
        const { rows } = await lock.query<{ waiting: number }>(
          `select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return rows[0]!.waiting >= held;
      }, 60_000);
      server.child.kill('SIGTERM');
      await eventually(
        () => logged(server, (entry) => entry.msg === 'SIGTERM: slutför pågående förfrågningar och stänger').length === 2,
        60_000,
      );
    } finally {
      await lock.query('commit');
      await lock.end();
    }
    const outcomes = await Promise.all(deliveries);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    servers.splice(servers.indexOf(server), 1);

    expect(outcomes.map((outcome) => outcome.status ?? outcome.error)).toEqual(Array(held).fill(200));
    // Both workers answered some of them, and both drained (each said so before it exited).
    const answeredBy = new Set(
      logged(server, (entry) => entry.msg === 'request completed' && entry.url === '/api/webhooks/shopify').map((entry) => entry.pid),
    );
    expect([...answeredBy].sort()).toEqual([...workers].sort());
    const drained = logged(server, (entry) => entry.msg === 'SIGTERM: slutför pågående förfrågningar och stänger').map(
      (entry) => entry.pid,
    );
    expect(drained.sort()).toEqual([...workers].sort());
    const stored = await inspectDatabase<{ webhook_id: string }>(data, sql`select webhook_id from webhook_events`);
    const ids = new Set(stored.map((row) => row.webhook_id));
    for (const outcome of outcomes) expect(ids.has(outcome.webhookId), outcome.webhookId).toBe(true);
  });
});

/** Starts the server with `env` and waits for it to end, with what it wrote. */
async function startThatEnds(env: Record<string, string>): Promise<EndedProcess> {
  const data = await folder.fresh(`slut-${crypto.randomBytes(3).toString('hex')}`);
  return startServerToEnd({ port: 0, data, env }, 60_000);
}

describe('WEB_CONCURRENCY at start', () => {
  it('is refused on the embedded database, in one Swedish line, before anything is opened', { timeout: 90_000 }, async () => {
    const outcome = await startThatEnds({ WEB_CONCURRENCY: '2', DATABASE_URL: '' });
    expect(outcome.code).toBe(1);
    expect(outcome.lines).toEqual([
      'Säljportalen kunde inte starta: WEB_CONCURRENCY=2 kräver DATABASE_URL: den inbäddade databasen (PGlite) kan bara användas av en process. Sätt DATABASE_URL till en PostgreSQL-databas, eller ta bort WEB_CONCURRENCY.',
    ]);
  });

  it('with a port in use: the primary says so once and starts no worker', { timeout: 90_000 }, async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const outcome = await startThatEnds({
        WEB_CONCURRENCY: '2',
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/finns-inte',
        PORT: String(port),
      });
      expect(outcome.code).toBe(1);
      expect(outcome.lines).toEqual([
        `Säljportalen kunde inte starta: porten 127.0.0.1:${port} används redan av ett annat program. Stoppa det eller välj en annan PORT.`,
      ]);
    } finally {
      holder.close();
    }
  });
});
