/**
 * Issue 17, points 1, 2 and 5 (decision 021, docs/reliability.md): the database goes away, or is
 * slow, while the real server runs. The server (a child process, as `npm start` runs it) reaches
 * PostgreSQL through a TCP proxy the test cuts, blackholes and restores; the machine's PostgreSQL
 * itself is never stopped. Shown for each case:
 * - requests that need the database answer 503 with the portal's Swedish error, never a 500, and
 *   never hang; `/api/health` stays 200 (the event loop answers) and `/api/ready` says 503;
 * - once the line is back the same process answers again within 5 s, without a restart;
 * - every webhook answered 200 is stored; none is counted twice; no order is half-written;
 * - a transaction holding a group's row makes a request that needs it answer 503 after the lock
 *   wait, while requests for other rows are answered as usual.
 * On PGlite (nothing to cut) the liveness and readiness answers and readiness while draining.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, openDatabase, type Database } from '../src/db/client.js';
import { createPostgresPool, DATABASE_LIMITS, PoolQueueFullError } from '../src/db/postgres-pool.js';
import { sqlRows } from './admin-fixtures.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { ledgerViolations } from './ledger-invariants.js';
import { sendShopifyWebhook, swedishOrder } from './shopify-webhooks.js';
import { serverDataFolder, spawnServer, type SpawnedServer } from './spawned-server.js';
import { DEMO_TEST_PASSWORD, eventually, testDbKind } from './test-server.js';

const folder = serverDataFolder('sp-db-faults-');
afterAll(() => folder.dispose());

interface ErrorBody {
  error: { code: string; message: string };
}

async function login(url: string, email: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_TEST_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`inloggning misslyckades: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** The portal's answer while the database is away: 503, code UNAVAILABLE, a Swedish sentence. */
async function expectUnavailable(response: Response) {
  const text = await response.text();
  expect(response.status, text).toBe(503);
  const body = JSON.parse(text) as ErrorBody;
  expect(body.error.code).toBe('UNAVAILABLE');
  expect(body.error.message).toMatch(/Databasen svarar inte|Servern stängs/);
}

/** One request on a raw keep-alive socket: status line, headers and body as text. */
function rawRequest(socket: net.Socket, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = received.slice(0, end);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      const body = received.slice(end + 4);
      if (Buffer.byteLength(body) < length) return;
      socket.off('data', onData);
      socket.off('error', reject);
      resolve({ status: Number(head.split(' ')[1]), body });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
  });
}

describe(`liveness and readiness (${testDbKind})`, () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await spawnServer({ port: 0, data: await folder.fresh('ready') });
  }, 240_000);
  afterAll(() => server?.kill());

  it('health answers from the process, ready after asking the database and its migrations', async () => {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', database: testDbKind });
    const ready = await fetch(`${server.url}/api/ready`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; database: string; migrations: number };
    expect(body).toMatchObject({ status: 'ready', database: testDbKind });
    expect(body.migrations).toBeGreaterThan(0);
  });

  it('while the process drains at shutdown, ready answers 503 on a connection it had accepted', async () => {
    const port = Number(new URL(server.url).port);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    expect((await rawRequest(socket, '/api/ready')).status).toBe(200);

    const draining = server.waitForLog((entry) => /^SIGTERM/.test(entry.msg ?? ''));
    server.child.kill('SIGTERM');
    await draining;
    const ready = await rawRequest(socket, '/api/ready');
    expect(ready.status, ready.body).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({
      error: { code: 'UNAVAILABLE', message: 'Servern stängs: den tar inte emot nya förfrågningar.' },
    });
    socket.destroy();
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});

describe.skipIf(testDbKind !== 'postgres')('PostgreSQL goes away and comes back (through a fault proxy)', () => {
  let server: SpawnedServer;
  let proxy: FaultProxy;
  let direct: Database;
  let directUrl: string;

  beforeAll(async () => {
    const data = await folder.fresh('faults');
    directUrl = data.databaseUrl!;
    const target = new URL(directUrl);
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    server = await spawnServer({ port: 0, data: { ...data, databaseUrl: proxy.through(directUrl) } });
    direct = await openDatabase({ databaseUrl: directUrl });
  }, 240_000);
  afterAll(async () => {
    await server?.kill();
    await direct?.close();
    await proxy?.close();
  });

  /** The same process, answering again: ready within the 5 s of issue 17 once the line is back. */
  async function recovered(pid: number | undefined) {
    await eventually(async () => (await fetch(`${server.url}/api/ready`)).status === 200, 5000);
    expect(server.child.pid).toBe(pid);
    expect(server.child.exitCode).toBeNull();
  }

  it('line cut: 503 in Swedish for what needs the database, health stays 200, ready 503; back by itself', async () => {
    const token = await login(server.url, 'noah@demo.se');
    const pid = server.child.pid;
    proxy.cut();

    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    await expectUnavailable(await fetch(`${server.url}/api/ready`));
    await expectUnavailable(await fetch(`${server.url}/api/me/summary`, { headers: { authorization: `Bearer ${token}` } }));
    const loginWhileCut = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'noah@demo.se', password: DEMO_TEST_PASSWORD }),
    });
    await expectUnavailable(loginWhileCut);
    expect(loginWhileCut.headers.get('retry-after')).toBe('5');
    const webhookId = crypto.randomUUID();
    await expectUnavailable(
      await sendShopifyWebhook(server.url, 'orders/create', swedishOrder({ id: 7_170_000_000_001, refCode: 'DEMO0003' }), { webhookId }),
    );
    const [stored] = await sqlRows<{ count: number }>(
      direct.db,
      sql`select count(*)::int as count from webhook_events where webhook_id = ${webhookId}`,
    );
    expect(stored!.count).toBe(0);

    // Told once, for whatever keeps database state outside requests (DatabaseAvailability.onRestored).
    const back = server.waitForLog((entry) => entry.msg === 'databasen svarar igen');
    proxy.restore();
    await recovered(pid);
    expect((await fetch(`${server.url}/api/me/summary`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await back;
    expect(server.logLines().filter((line) => /"statusCode":500|"status":500/.test(line))).toEqual([]);
  }, 120_000);

  it('line blackholed: requests end in 503 instead of hanging, while health answers at once', async () => {
    const token = await login(server.url, 'noah@demo.se');
    const pid = server.child.pid;
    proxy.blackhole();

    let groupsSettled = false;
    const groups = fetch(`${server.url}/api/account/groups`, { headers: { authorization: `Bearer ${token}` } }).finally(() => {
      groupsSettled = true;
    });
    const readyWhileHeld = fetch(`${server.url}/api/ready`);
    // The event loop is free while the query waits on the silent line (seconds): health answers meanwhile.
    let healthWhileWaiting = 0;
    while (!groupsSettled) {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      if (!groupsSettled) healthWhileWaiting++;
    }
    expect(healthWhileWaiting).toBeGreaterThan(0);
    await expectUnavailable(await readyWhileHeld);
    await expectUnavailable(await groups);
    // The seller calls answer from the read model, which stops answering once its last confirmation
    // from the database is a second old (decision 047): a 503 after its wait, never a hang.
    await expectUnavailable(await fetch(`${server.url}/api/me/summary`, { headers: { authorization: `Bearer ${token}` } }));

    proxy.restore();
    await recovered(pid);
    expect((await fetch(`${server.url}/api/me/summary`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  }, 120_000);

  /** Milliseconds until `request` settles, with its response. */
  async function timed(request: Promise<Response>): Promise<{ ms: number; response: Response }> {
    const started = performance.now();
    const response = await request;
    await response.clone().arrayBuffer();
    return { ms: performance.now() - started, response };
  }

  it('faults answered in two seconds: seller calls and readiness within the read model’s and the probe’s limits, a webhook within five, and few log lines for many refusals', async () => {
    const token = await login(server.url, 'noah@demo.se');
    const summary = () => fetch(`${server.url}/api/me/summary`, { headers: { authorization: `Bearer ${token}` } });
    const figures: string[] = [];
    for (const fault of ['cut', 'blackhole'] as const) {
      const linesBefore = server.logLines().length;
      const faultAt = performance.now();
      proxy[fault]();
      // The limits are 1.5 s (the read model's wait, the readiness probe's) and 4 s (a webhook's
      // answer); the bounds here leave a busy machine its margin and still fail the limits that came
      // before (5 s, 3 s, and 12 s of a silent line). For up to a second after the fault the seller
      // calls are answered from the model, whose figures are then at most that old (decision 047).
      let seller = await timed(summary());
      while (seller.response.status === 200 && performance.now() - faultAt < 10_000) seller = await timed(summary());
      await expectUnavailable(seller.response);
      const sellerMs = performance.now() - faultAt;
      expect(sellerMs).toBeLessThan(4_500);
      const ready = await timed(fetch(`${server.url}/api/ready`));
      await expectUnavailable(ready.response);
      expect(ready.ms).toBeLessThan(2_900);
      const webhookId = crypto.randomUUID();
      const order = swedishOrder({ id: 7_172_000_000_000 + (fault === 'cut' ? 1 : 2), refCode: 'DEMO0003' });
      const webhook = await timed(sendShopifyWebhook(server.url, 'orders/create', order, { webhookId }));
      await expectUnavailable(webhook.response);
      expect(webhook.ms).toBeLessThan(8_000);
      // Traffic meanwhile: 60 seller calls, each refused; the log says so in a few lines.
      for (const answers of await Promise.all(Array.from({ length: 60 }, summary))) expect(answers.status).toBe(503);
      const refused = 60 + 3;
      const warnings = server
        .logLines()
        .slice(linesBefore)
        .filter((line) => /"level":(40|50)/.test(line));
      figures.push(
        `${fault}: säljaranrop 503 efter ${Math.round(sellerMs)} ms, ready ${Math.round(ready.ms)} ms, webhook ${Math.round(webhook.ms)} ms, ${warnings.length} varningsrader för ${refused} avvisade`,
      );
      expect(warnings.length, warnings.join('\n')).toBeLessThanOrEqual(8);

      proxy.restore();
      await recovered(server.child.pid);
      // Shopify delivers again with the same id: the order counts once, whatever the first attempt got done.
      await eventually(async () => (await sendShopifyWebhook(server.url, 'orders/create', order, { webhookId })).status === 200, 10_000);
      const [stored] = await sqlRows<{ events: number; orders: number }>(
        direct.db,
        sql`select (select count(*)::int from webhook_events where webhook_id = ${webhookId}) as events,
                   (select count(*)::int from orders where shopify_order_id = ${String(order.id)}) as orders`,
      );
      expect(stored).toEqual({ events: 1, orders: 1 });
    }
    console.info(`fel besvarade: ${figures.join('; ')}`);
  }, 120_000);

  it('webhooks while the line is cut and restored: every 200 is a stored event, and after Shopify retries each order counts once', async () => {
    const deliveries = Array.from({ length: 30 }, (_, index) => ({
      webhookId: crypto.randomUUID(),
      orderId: 7_171_000_000_000 + index,
      statuses: [] as number[],
    }));
    const send = async (delivery: (typeof deliveries)[number]) => {
      const response = await sendShopifyWebhook(
        server.url,
        'orders/create',
        swedishOrder({ id: delivery.orderId, refCode: 'DEMO0003', name: `#F${delivery.orderId % 1000}` }),
        { webhookId: delivery.webhookId },
      );
      const text = await response.text();
      if (response.status !== 200) expect(JSON.parse(text) as ErrorBody).toMatchObject({ error: { code: 'UNAVAILABLE' } });
      delivery.statuses.push(response.status);
      return response.status;
    };

    // Four at a time; the line is cut after the 8th answer and restored after the 20th, so that
    // deliveries are in flight at both moments.
    let answered = 0;
    let next = 0;
    const worker = async () => {
      while (next < deliveries.length) {
        const delivery = deliveries[next++]!;
        await send(delivery);
        answered++;
        if (answered === 8) proxy.cut();
        if (answered === 20) proxy.restore();
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    proxy.restore();
    const firstPass = deliveries.map((delivery) => delivery.statuses[0]!);
    const ok = firstPass.filter((status) => status === 200).length;
    expect(firstPass.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(firstPass.filter((status) => status === 503).length).toBeGreaterThan(0);

    // Every delivery answered 200 is stored and processed: Shopify will not send it again.
    const ids = deliveries.map((delivery) => delivery.webhookId);
    const storedAfterFirstPass = await sqlRows<{ webhook_id: string; processed: boolean }>(
      direct.db,
      sql`select webhook_id, processed_at is not null as processed from webhook_events
          where webhook_id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
    );
    const storedIds = new Map(storedAfterFirstPass.map((row) => [row.webhook_id, row.processed]));
    const acknowledged = deliveries.filter((delivery) => delivery.statuses[0] === 200);
    expect(acknowledged.filter((delivery) => storedIds.get(delivery.webhookId) !== true)).toEqual([]);

    // Shopify retries what was not answered 200, with the same webhook id, until it is.
    await recovered(server.child.pid);
    for (const delivery of deliveries.filter((d) => d.statuses[0] !== 200)) {
      await eventually(async () => (await send(delivery)) === 200, 5000);
    }

    const orderIds = deliveries.map((delivery) => sql`${String(delivery.orderId)}`);
    const [events] = await sqlRows<{ events: number; processed: number }>(
      direct.db,
      sql`select count(*)::int as events, count(processed_at)::int as processed from webhook_events
          where webhook_id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
    );
    const [orders] = await sqlRows<{ orders: number; distinct_orders: number }>(
      direct.db,
      sql`select count(*)::int as orders, count(distinct shopify_order_id)::int as distinct_orders from orders
          where shopify_order_id::text in (${sql.join(orderIds, sql`, `)})`,
    );
    console.info(
      `databasavbrott: ${deliveries.length} webhooks, ${ok} svarade 200 första gången (alla sparade), ` +
        `${deliveries.length - ok} fick 503 och skickades igen; efteråt ${events!.events} händelser, ${orders!.orders} ordrar`,
    );
    expect(events).toEqual({ events: deliveries.length, processed: deliveries.length });
    expect(orders).toEqual({ orders: deliveries.length, distinct_orders: deliveries.length });
    expect(await ledgerViolations(direct.db)).toEqual([]);
    expect(server.logLines().filter((line) => /"statusCode":500/.test(line))).toEqual([]);
  }, 180_000);

  it("the pool's waiting line is bounded: past it a request fails at once, and the waiting ones fail when their wait is up", async () => {
    const target = new URL(directUrl);
    const line = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    line.blackhole();
    const { pool } = createPostgresPool({ connectionString: line.through(directUrl), max: 1, sessionSettings: '', limits: true });
    pool.on('error', () => {});
    try {
      const settled: unknown[] = [];
      const attempt = () =>
        pool.connect().then(
          (client) => {
            client.release();
            return 'ansluten';
          },
          (error: unknown) => {
            settled.push(error);
            return error;
          },
        );
      // One connecting (the pool's only connection, to a line that never answers) and a full waiting line.
      const held = Array.from({ length: 1 + DATABASE_LIMITS.maxWaiting }, attempt);
      const refused = await attempt();
      expect(refused).toBeInstanceOf(PoolQueueFullError);
      expect(settled).toEqual([refused]);
      const outcomes = await Promise.all(held);
      expect(outcomes.filter((outcome) => !isDatabaseUnavailable(outcome))).toEqual([]);
    } finally {
      await pool.end().catch(() => {});
      await line.close();
    }
  }, 60_000);

  it("a transaction holding a group's row: a request that needs it answers 503 after the lock wait, others as usual", async () => {
    const teacher = await login(server.url, 'larare@bjorkskolan.se');
    const otherAdmin = await login(server.url, 'ledare@tallen.se');
    const [group] = await sqlRows<{ id: number }>(direct.db, sql`select id from groups where code = 'BJK6B2'`);
    const [otherGroup] = await sqlRows<{ id: number }>(direct.db, sql`select id from groups where code = 'SCT482'`);
    const setLeaderboard = (token: string, groupId: number, visible: boolean) =>
      fetch(`${server.url}/api/group/settings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ group_id: groupId, show_leaderboard: visible }),
      });

    // The holder: a transaction of its own, straight to PostgreSQL, holding the group's row (for
    // as long as the test needs: beyond the server's lock wait, as a 10 s transaction would).
    const holder = new pg.Client({ connectionString: directUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select * from groups where id = $1 for update', [group!.id]);

      const blocked = setLeaderboard(teacher, group!.id, false);
      // Not blocked: another group's row, the same group's figures (reads wait for no row lock), health.
      expect((await setLeaderboard(otherAdmin, otherGroup!.id, false)).status).toBe(200);
      expect((await fetch(`${server.url}/api/me/summary`, { headers: { authorization: `Bearer ${teacher}` } })).status).toBe(200);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);

      await expectUnavailable(await blocked);
      // Answered while the row was still held: the wait was bounded by the server, not by the holder.
      const [held] = await sqlRows<{ held: number }>(
        direct.db,
        sql`select count(*)::int as held from pg_locks l join pg_class c on c.oid = l.relation
            where c.relname = 'groups' and l.mode = 'RowShareLock' and l.granted`,
      );
      expect(held!.held).toBeGreaterThan(0);
    } finally {
      await holder.query('rollback').catch(() => {});
      await holder.end();
    }
    expect((await setLeaderboard(teacher, group!.id, false)).status).toBe(200);
  }, 120_000);
});
