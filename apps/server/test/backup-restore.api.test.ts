/**
 * Issue 8, backup and restore: `npm run backup` dumps the demo data of the embedded database
 * (PGlite's pg_dump) or of PostgreSQL (pg_dump), `npm run restore` reads it into an empty one,
 * and every figure is the same afterwards; the restored database takes new data where the old
 * left off. Neither command writes over data, nor touches an embedded database a server holds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, migrationsFolder, type Database } from '../src/db/client.js';
import { resolveJwtSecret } from '../src/db/jwt-secret.js';
import { acquireDataDirLock } from '../src/db/data-dir-lock.js';
import { seedDemoData } from '../src/modules/demo/seed.js';
import { loadOverview } from '../src/modules/figures/load-overview.js';
import { insertGroupWithUniqueCode } from '../src/modules/groups/group-code.js';
import { sqlRows } from './admin-fixtures.js';
import { ledgerViolations } from './ledger-invariants.js';
import { spawnOperatorCommand } from './operator-commands.js';
import { spawnServer, type SpawnedServer } from './spawned-server.js';
import { DEMO_LOGINS } from '../src/modules/demo/seed.js';
import { DEMO_TEST_PASSWORD, copyTemplateDatabase, createPostgresDatabase, testDbKind } from './test-server.js';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-backup-'));
const dumpFile = path.join(workDir, 'saljportalen.sql');
/**
 * The most groups the writer creates, and health checks the checker makes, while a running portal
 * is backed up. Unbounded, the writer added some 1,100 groups on a quiet machine (more on a busy
 * one) that every later step copied and compared. A hundred land while the backup runs (it
 * outlasted 300 on a quiet machine), which is what the test holds: writes answered meanwhile.
 */
const MOST_WRITES = 100;

/** Where a database lives: an embedded one in a data dir, or a PostgreSQL database. */
interface Place {
  env: Record<string, string>;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

async function place(name: string): Promise<Place> {
  const dataDir = path.join(workDir, name);
  if (testDbKind === 'postgres') {
    const postgres = await createPostgresDatabase();
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: postgres.url },
      open: () => openDatabase({ databaseUrl: postgres.url }),
      drop: () => postgres.drop(),
    };
  }
  return { env: { DATA_DIR: dataDir, DATABASE_URL: '' }, open: () => openDatabase({ dataDir }), drop: async () => {} };
}

/** Every row of every table (ours and drizzle's migration log), as text, sorted: two databases compare whole. */
async function everyRow(database: Database): Promise<Record<string, string[]>> {
  const tables = await sqlRows<{ name: string }>(
    database.db,
    sql`select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables
        where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`,
  );
  const rows: Record<string, string[]> = {};
  // One session in UTC: times read the same from PGlite and from PostgreSQL.
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local time zone 'UTC'`);
    for (const { name } of tables) {
      const found = await sqlRows<{ row: string }>(tx, sql.raw(`select t::text as row from ${name} t order by 1`));
      rows[name] = found.map(({ row }) => row);
    }
  });
  return rows;
}

/** Every figure the portal shows and every row count, in one comparable value. */
async function figures(database: Database) {
  const [counts] = await sqlRows<Record<string, string>>(
    database.db,
    sql`select
      (select count(*) from users)::text as users,
      (select md5(string_agg(concat_ws(',', email, full_name, password_hash, is_superadmin, active_group_id), ';' order by id)) from users) as user_rows,
      (select string_agg(concat_ws(':', id, name, code, archived, leaderboard_visible), ',' order by id) from groups) as groups,
      (select md5(string_agg(concat_ws(',', user_id, group_id, role, link_code), ';' order by id)) from memberships) as memberships,
      (select count(*) || ':' || sum(subtotal_ore) || ':' || sum(commission_ore) from orders) as orders,
      (select count(*) || ':' || sum(amount_ore) || ':' || sum(commission_ore) || ':' || count(payout_id) from order_lines) as lines,
      (select string_agg(concat_ws(':', id, group_id, status, orders_count, lines_count, commission_ore, paid_at), ',' order by id) from payouts) as payouts,
      (select count(*) from audit_entries)::text as audit,
      (select count(*) from drizzle.__drizzle_migrations)::text as migrations`,
  );
  return { counts, overview: await loadOverview(database.db, {}) };
}

let source: Place;
let target: Place;
let before: Awaited<ReturnType<typeof figures>>;

beforeAll(async () => {
  source = await place('kalla');
  target = await place('mal');
  const database = await source.open();
  try {
    await seedDemoData(database.db, { password: DEMO_TEST_PASSWORD });
    before = await figures(database);
  } finally {
    await database.close();
  }
}, 120_000);

afterAll(async () => {
  await source?.drop();
  await target?.drop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('round-trips the demo data into an empty database with every figure the same', { timeout: 180_000 }, async () => {
    const backup = await spawnOperatorCommand('backup', [dumpFile], { env: source.env, throughNpm: true });
    expect(backup, backup.output).toMatchObject({ code: 0 });
    expect(backup.output).toContain(`Säkerhetskopian är sparad i ${dumpFile}`);
    expect(fs.statSync(dumpFile).mode & 0o077).toBe(0);

    const restore = await spawnOperatorCommand('restore', [dumpFile], { env: target.env, throughNpm: true });
    expect(restore, restore.output).toMatchObject({ code: 0 });
    expect(restore.output).toContain('är inläst');

    const restored = await target.open();
    try {
      const after = await figures(restored);
      expect(after).toEqual(before);
      expect(Number(after.counts!.migrations)).toBe(fs.readdirSync(migrationsFolder).filter((file) => file.endsWith('.sql')).length);
      expect(await ledgerViolations(restored.db)).toEqual([]);
      // New rows continue the identities instead of colliding with restored ones.
      const [highest] = await sqlRows<{ id: number }>(restored.db, sql`select max(id) as id from groups`);
      const group = await insertGroupWithUniqueCode(restored.db, { name: 'Efter återläsningen' });
      expect(group.id).toBeGreaterThan(Number(highest!.id));
    } finally {
      await restored.close();
    }
  });

  it('refuses to restore into a database that has data, and to back up over an existing file', { timeout: 180_000 }, async () => {
    const intoFull = await spawnOperatorCommand('restore', [dumpFile], { env: target.env });
    expect(intoFull.code).not.toBe(0);
    expect(intoFull.output).toContain('innehåller redan data');

    const overwrite = await spawnOperatorCommand('backup', [dumpFile], { env: source.env });
    expect(overwrite.code).toBe(2);
    expect(overwrite.output).toContain('finns redan');
  });

  it.runIf(testDbKind === 'pglite')('leaves an embedded database alone while a server has it open', { timeout: 180_000 }, async () => {
    const release = acquireDataDirLock(source.env.DATA_DIR!);
    try {
      const backup = await spawnOperatorCommand('backup', [path.join(workDir, 'medan-servern-kor.sql')], { env: source.env });
      expect(backup.code).not.toBe(0);
      expect(backup.output).toContain(`används redan av process ${process.pid}`);
      expect(backup.output).toContain('bara kopieras eller läsas in när servern är stoppad');
      expect(fs.existsSync(path.join(workDir, 'medan-servern-kor.sql'))).toBe(false);
    } finally {
      release();
    }
  });

  it.runIf(testDbKind === 'pglite')(
    'backs up a running embedded portal while it takes writes, with its signing secret, without stopping it',
    { timeout: 600_000 },
    async () => {
      const liveData = { dataDir: path.join(workDir, 'levande') };
      // A portal that has run before: its first start is not what this test is about.
      copyTemplateDatabase('seeded', liveData.dataDir);
      // Nothing but the test writes: a scheduled job that runs at the turn of an hour, after the idle
      // backup, is a write the comparison of the idle backup with the portal would count (it did, at 15:00).
      const quiet = { JWT_SECRET: '', SCHEDULED_JOBS: 'off' };
      const live = await spawnServer({ port: 0, data: liveData, env: quiet });
      const servers: SpawnedServer[] = [live];
      try {
        const api = (server: SpawnedServer, token: string, route: string, body?: unknown) =>
          fetch(server.url + route, {
            method: body ? 'POST' : 'GET',
            headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
            body: body ? JSON.stringify(body) : undefined,
          });
        const signIn = await fetch(`${live.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: DEMO_LOGINS[0].email, password: DEMO_TEST_PASSWORD }),
        });
        const { token } = (await signIn.json()) as { token: string };

        // A steady stream of new groups (each with its audit entry and figures) while the backup runs.
        const written: number[] = [];
        const refused: string[] = [];
        let writing = true;
        // The backup begins once three writes are in (or one was refused): told by the writer, not polled.
        let warmedUp!: () => void;
        const writesUnderWay = new Promise<void>((resolve) => (warmedUp = resolve));
        // How long each write and each health check waited, in milliseconds (issue 34 point 2: at most 1 s).
        const writeWaits: number[] = [];
        const healthWaits: number[] = [];
        // Bounded (MOST_WRITES): past the bound the writer stops and the backup goes on.
        const writer = (async () => {
          for (let i = 0; writing && refused.length === 0 && i < MOST_WRITES; i++) {
            const sent = performance.now();
            const response = await api(live, token, '/api/admin/groups/create', { group_name: `Under kopieringen ${i}` });
            writeWaits.push(performance.now() - sent);
            if (response.status === 200) written.push(i);
            else refused.push(`${response.status} ${await response.text()}`);
            if (written.length >= 3 || refused.length > 0) warmedUp();
          }
          warmedUp();
        })();
        await writesUnderWay;
        const checker = (async () => {
          while (writing && healthWaits.length < MOST_WRITES) {
            const sent = performance.now();
            expect((await fetch(`${live.url}/api/health`)).status).toBe(200);
            healthWaits.push(performance.now() - sent);
          }
        })();
        const duringFile = path.join(workDir, 'under-skrivningar.sql');
        const writtenBefore = written.length;
        const writesBefore = writeWaits.length;
        const during = await spawnOperatorCommand('backup', [duringFile], { env: { DATA_DIR: liveData.dataDir, DATABASE_URL: '' } });
        const writtenMeanwhile = written.length - writtenBefore;
        writing = false;
        await Promise.all([writer, checker]);
        const longest = (waits: number[]) => Math.round(Math.max(...waits));
        const writesDuring = writeWaits.slice(writesBefore);
        console.info(
          `säkerhetskopia medan portalen kör: ${healthWaits.length} hälsokontroller, längsta väntan ${longest(healthWaits)} ms; ` +
            `${writesDuring.length} skrivningar, längsta väntan ${longest(writesDuring)} ms`,
        );
        // How long a request waits during a backup (at most a second, issue 34 point 2) is
        // `npm run bench -- --only=backup`'s figure (258 ms on 42 MB on a quiet machine), not an
        // assertion here, where the machine's load decides it. What the test holds is the event:
        // writes were answered while the dump ran (below), not held back until it ended.
        expect(refused).toEqual([]);
        expect(during, during.output).toMatchObject({ code: 0 });
        expect(during.output).toContain('Den körande portalen gjorde säkerhetskopian');
        expect(fs.statSync(duringFile).mode & 0o077).toBe(0);
        // The portal kept answering while it was copied.
        expect(writtenMeanwhile).toBeGreaterThan(0);

        // Idle now: a second backup must hold exactly what the portal holds.
        const idleFile = path.join(workDir, 'i-vila.sql');
        const idle = await spawnOperatorCommand('backup', [idleFile], { env: { DATA_DIR: liveData.dataDir, DATABASE_URL: '' } });
        expect(idle, idle.output).toMatchObject({ code: 0 });

        const duringDir = path.join(workDir, 'aterlast-under');
        const idleDir = path.join(workDir, 'aterlast-vila');
        for (const [file, dataDir] of [
          [duringFile, duringDir],
          [idleFile, idleDir],
        ] as const) {
          const restore = await spawnOperatorCommand('restore', [file], { env: { DATA_DIR: dataDir, DATABASE_URL: '' } });
          expect(restore, restore.output).toMatchObject({ code: 0 });
        }

        // The restored portal answers as the live one, to the token the live one issued.
        const restored = await spawnServer({ port: 0, data: { dataDir: idleDir }, env: quiet });
        servers.push(restored);
        for (const route of [
          '/api/account/profile',
          '/api/admin/overview',
          '/api/admin/groups?status=all&limit=500',
          '/api/admin/sellers?status=all&limit=500',
          '/api/admin/payouts',
          '/api/me/summary',
        ]) {
          const [fromLive, fromRestored] = await Promise.all([api(live, token, route), api(restored, token, route)]);
          expect(fromRestored.status, route).toBe(fromLive.status);
          expect(fromLive.status, route).toBe(200);
          expect(await fromRestored.json(), route).toEqual(await fromLive.json());
        }
        await restored.kill('SIGTERM');
        await live.kill('SIGTERM');
        expect(fs.existsSync(path.join(liveData.dataDir, 'backup.sock'))).toBe(false);

        const open = (dataDir: string) => openDatabase({ dataDir });
        const [liveDb, idleDb, duringDb] = [await open(liveData.dataDir), await open(idleDir), await open(duringDir)];
        try {
          const final = await everyRow(liveDb);
          // No job ran (SCHEDULED_JOBS off): what follows compares what the test wrote, at any hour.
          expect(final['public.job_runs']).toEqual([]);
          expect(await everyRow(idleDb)).toEqual(final);
          // The backup taken during the writes is the portal at one moment: every row it holds is
          // in the portal, unchanged, and the groups it holds are the first ones created, no gaps.
          const snapshot = await everyRow(duringDb);
          expect(Object.keys(snapshot)).toEqual(Object.keys(final));
          for (const [table, rows] of Object.entries(snapshot)) {
            const present = new Set(final[table]);
            expect(
              rows.filter((row) => !present.has(row)),
              table,
            ).toEqual([]);
          }
          const groupIds = async (database: Database) =>
            (await sqlRows<{ id: number }>(database.db, sql`select id from groups order by id`)).map(({ id }) => Number(id));
          const [allIds, snapshotIds] = [await groupIds(liveDb), await groupIds(duringDb)];
          expect(snapshotIds).toEqual(allIds.slice(0, snapshotIds.length));
          expect(await ledgerViolations(duringDb.db)).toEqual([]);
        } finally {
          for (const database of [liveDb, idleDb, duringDb]) await database.close();
        }
      } finally {
        for (const server of servers) if (server.child.exitCode === null) await server.kill();
      }
    },
  );

  it.runIf(testDbKind === 'postgres')(
    'moves the embedded database to PostgreSQL: every table, every answer and the signing secret the same',
    { timeout: 300_000 },
    async () => {
      const embeddedDir = path.join(workDir, 'flytt-inbaddad');
      const embedded = await openDatabase({ dataDir: embeddedDir });
      const config = loadConfig({ DATA_DIR: embeddedDir, LOG_LEVEL: 'silent', RATE_LIMITS: '0', WEB_DIST: path.join(workDir, 'no-web') });
      let token: string;
      let embeddedAnswers: unknown[];
      let embeddedRows: Record<string, string[]>;
      let embeddedSecret: string;
      try {
        await seedDemoData(embedded.db, { password: DEMO_TEST_PASSWORD });
        embeddedSecret = await resolveJwtSecret(config, embedded.db);
        const app = await buildApp({ config, database: embedded, jwtSecret: embeddedSecret });
        try {
          const login = await app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: DEMO_LOGINS[0].email, password: DEMO_TEST_PASSWORD },
          });
          token = (login.json() as { token: string }).token;
          embeddedAnswers = await answers(app, token);
        } finally {
          await app.close();
        }
        embeddedRows = await everyRow(embedded);
      } finally {
        await embedded.close();
      }

      const dump = path.join(workDir, 'flytt.sql');
      const backup = await spawnOperatorCommand('backup', [dump], { env: { DATA_DIR: embeddedDir, DATABASE_URL: '' } });
      expect(backup, backup.output).toMatchObject({ code: 0 });
      const postgres = await createPostgresDatabase();
      try {
        const restore = await spawnOperatorCommand('restore', [dump], {
          env: { DATA_DIR: path.join(workDir, 'flytt-pg'), DATABASE_URL: postgres.url },
        });
        expect(restore, restore.output).toMatchObject({ code: 0 });

        const moved = await openDatabase({ databaseUrl: postgres.url });
        try {
          expect(await everyRow(moved)).toEqual(embeddedRows);
          expect(await ledgerViolations(moved.db)).toEqual([]);
          // No JWT_SECRET: the secret came along, so sessions survive the move.
          const movedConfig = { ...config, dataDir: path.join(workDir, 'flytt-pg'), databaseUrl: postgres.url };
          const movedSecret = await resolveJwtSecret(movedConfig, moved.db);
          expect(movedSecret).toBe(embeddedSecret);
          const app = await buildApp({ config: movedConfig, database: moved, jwtSecret: movedSecret });
          try {
            expect(await answers(app, token)).toEqual(embeddedAnswers);
          } finally {
            await app.close();
          }
          const [highest] = await sqlRows<{ id: number }>(moved.db, sql`select max(id) as id from groups`);
          const group = await insertGroupWithUniqueCode(moved.db, { name: 'Efter flytten' });
          expect(group.id).toBeGreaterThan(Number(highest!.id));
        } finally {
          await moved.close();
        }
      } finally {
        await postgres.drop();
      }
    },
  );
});

/** The superadmin's and a seller's view of the portal, as the API answers them. */
async function answers(app: Awaited<ReturnType<typeof buildApp>>, token: string): Promise<unknown[]> {
  const found: unknown[] = [];
  for (const url of [
    '/api/account/profile',
    '/api/admin/overview',
    '/api/admin/groups?status=all&limit=500',
    '/api/admin/sellers?status=all&limit=500',
    '/api/admin/payouts',
  ]) {
    const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    found.push({ url, status: response.statusCode, body: response.json() });
  }
  return found;
}
