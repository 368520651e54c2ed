/**
 * Issue 29 point 2, decision 057: the read model's freshness with two workers on one PostgreSQL,
 * the reviewer's experiments kept as tests.
 * - Read-your-writes across workers: a write through worker A answers with the data version after
 *   it (`x-data-version`); a read on worker B that presents it shows the write, every time.
 * - A busy request pool does not hold the seller calls: the model's barriers and heartbeats go on
 *   the listening connection, so an in-memory answer needs no pooled connection.
 * (The third, a barrier that fails right after the first load, is in read-model.api.test.ts: it
 * needs the model in the test's own process.)
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMeSummaryResponse } from '@saljportalen/contract';
import { inspectDatabase, serverDataFolder, spawnServer, type ServerData, type SpawnedServer } from './spawned-server.js';
import { DEMO_TEST_PASSWORD, eventually, testDbKind } from './test-server.js';

const DATA_VERSION = 'x-data-version';

describe.runIf(testDbKind === 'postgres')('the read model’s freshness with two workers', () => {
  const folder = serverDataFolder('sp-freshness-');
  const servers: SpawnedServer[] = [];
  let data: ServerData;
  let a: SpawnedServer;
  let b: SpawnedServer;

  beforeAll(async () => {
    data = await folder.fresh('shared');
    // A's pool holds two connections: the second experiment fills it. One first, so the other finds the demo data seeded.
    servers.push(await spawnServer({ port: 0, data, env: { JWT_SECRET: '', DATABASE_POOL_SIZE: '2' } }));
    servers.push(await spawnServer({ port: 0, data: { ...data, dataDir: `${data.dataDir}-b` }, env: { JWT_SECRET: '' } }));
    [a, b] = servers as [SpawnedServer, SpawnedServer];
  }, 300_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await folder.dispose();
  });

  const login = async (server: SpawnedServer, email: string) => {
    const response = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_TEST_PASSWORD }),
    });
    expect(response.status, email).toBe(200);
    return ((await response.json()) as { token: string }).token;
  };

  it('shows a write through one worker in every read on the other that presents the write’s version', { timeout: 120_000 }, async () => {
    const tokenOnA = await login(a, 'noah@demo.se');
    const tokenOnB = await login(b, 'noah@demo.se');
    const rounds = 200;
    let stale = 0;
    let previous = 0;
    for (let round = 1; round <= rounds; round++) {
      const name = `Noah Namn ${round}`;
      const renamed = await fetch(`${a.url}/api/account/profile`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokenOnA}`, 'content-type': 'application/json' },
        body: JSON.stringify({ full_name: name }),
      });
      expect(renamed.status).toBe(200);
      const version = renamed.headers.get(DATA_VERSION);
      expect(version, 'the write’s answer carries the data version').toMatch(/^\d+$/);
      // A version never goes back.
      expect(Number(version)).toBeGreaterThanOrEqual(previous);
      previous = Number(version);
      const read = await fetch(`${b.url}/api/me/summary`, { headers: { authorization: `Bearer ${tokenOnB}`, [DATA_VERSION]: version! } });
      expect(read.status).toBe(200);
      if (((await read.json()) as TMeSummaryResponse).user.full_name !== name) stale += 1;
    }
    expect(`${stale} of ${rounds} reads on the other worker showed the old name`).toBe(
      `0 of ${rounds} reads on the other worker showed the old name`,
    );
  });

  it('answers a seller call from memory while the request pool is busy', { timeout: 120_000 }, async () => {
    const seller = await login(a, 'elsa@demo.se');
    const [teacher] = await inspectDatabase<{ id: number }>(data, sql`select id from users where email = 'larare@bjorkskolan.se'`);
    const holder = new pg.Client({ connectionString: data.databaseUrl });
    await holder.connect();
    const teacherToken = await login(a, 'larare@bjorkskolan.se');
    try {
      // Two writes wait for a row this transaction holds: both of A's pooled connections are taken.
      await holder.query('begin');
      await holder.query('select id from users where id = $1 for update', [teacher!.id]);
      const held = [1, 2].map((n) =>
        fetch(`${a.url}/api/account/profile`, {
          method: 'POST',
          headers: { authorization: `Bearer ${teacherToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ full_name: `Lärare Väntar ${n}` }),
        }),
      );
      // Awaited at the end; a test that fails before then must not leave them unhandled.
      for (const pending of held) pending.catch(() => {});
      const watcher = new pg.Client({ connectionString: data.databaseUrl });
      await watcher.connect();
      await eventually(async () => {
        const { rows } = await watcher.query<{ waiting: number }>(
          `select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return rows[0]!.waiting >= 2;
      }, 30_000);
      await watcher.end();
      // Longer than the model's freshness bound (one second): its heartbeats must go out meanwhile.
      const busySince = Date.now();
      const slowest = { ms: 0, status: 200 };
      while (Date.now() - busySince < 1_500) {
        const started = Date.now();
        const response = await fetch(`${a.url}/api/me/summary`, { headers: { authorization: `Bearer ${seller}` } });
        await response.arrayBuffer();
        if (Date.now() - started >= slowest.ms) Object.assign(slowest, { ms: Date.now() - started, status: response.status });
      }
      expect(slowest.status).toBe(200);
      // Far from the model's 5 s wait that ended in a 503; margin for a busy two-core machine (384 ms seen there).
      expect(slowest.ms).toBeLessThan(2_000);
      await holder.query('rollback');
      for (const response of await Promise.all(held)) expect(response.status).toBe(200);
    } finally {
      await holder.end();
    }
  });
});
