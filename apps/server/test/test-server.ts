/**
 * Starts the real server for API tests: a fresh database (in-memory PGlite, or a new database on
 * the PostgreSQL at 127.0.0.1:5432 when TEST_DB=postgres), real HTTP on a free port, mails in a
 * temporary outbox.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifySchema } from 'fastify';
import { inject } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { DATA_VERSION_HEADER } from '../src/plugins/read-model.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { seedDemoData } from '../src/modules/demo/seed.js';
import type { TLeaderboardResponse } from '@saljportalen/contract';
import { adminQuery, databaseUrl } from './postgres-admin.js';
import { routeCollector } from './route-table.js';
import { copyTemplateDataDir, pgliteDump, postgresTemplate, type TestTemplate } from './test-databases.js';

/**
 * The demo accounts' password in tests: the API tests seed with it, and spawned servers find it
 * in their data dir's demo-password file (spawned-server.ts). A real install generates its own.
 */
export const DEMO_TEST_PASSWORD = 'demo1234';

/** The key the test server signs access tokens with. */
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123';

export const testDbKind = (process.env.TEST_DB ?? 'pglite') as 'pglite' | 'postgres';
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestServer {
  url: string;
  app: Awaited<ReturnType<typeof buildApp>>;
  database: Database;
  dataDir: string;
  /** `METHOD path` of every route the server has (Fastify's onRoute hook), HEAD routes included. */
  routes: readonly string[];
  /** `METHOD path` of the routes that declare an export of personal data (`config.personalDataExport`). */
  personalDataExports: readonly string[];
  /** The schema each route was declared with, by `METHOD path`. */
  routeSchemas: ReadonlyMap<string, FastifySchema>;
  /** fetch against the server; `token` adds the bearer header, objects are sent as JSON. */
  request(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /** Signs in and returns the access token. */
  login(email: string, password?: string): Promise<string>;
  /** The mails written to the outbox, oldest first. */
  mails(): { to: string; subject: string; text: string; html?: string; link?: string }[];
  close(): Promise<void>;
}

/**
 * The run's template databases (global-setup.ts), or null when a test file runs without that setup
 * or with TEST_DB_TEMPLATES=off (then every server migrates and seeds its own, as before decision
 * 055: how the two compare is measured that way).
 */
const testDatabases = () => {
  if (process.env.TEST_DB_TEMPLATES === 'off') return null;
  try {
    return inject('testDatabases') ?? null;
  } catch {
    return null;
  }
};

/**
 * A fresh PostgreSQL database; dropped again by the returned function. Empty, or a copy of the
 * run's migrated or seeded template (`from`).
 */
export async function createPostgresDatabase(from?: TestTemplate): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `sp_test_${crypto.randomBytes(6).toString('hex')}`;
  const template = from && postgresTemplate(testDatabases(), from);
  await adminQuery(POSTGRES_ADMIN_URL, template ? `create database ${name} template ${template}` : `create database ${name}`);
  return {
    url: databaseUrl(POSTGRES_ADMIN_URL, name),
    drop: () => adminQuery(POSTGRES_ADMIN_URL, `drop database if exists ${name} with (force)`),
  };
}

/**
 * Puts one of the run's templates in a spawned PGlite server's DATA_DIR (decisions 058, 060), for
 * tests whose server need not be a first start; false without the run's templates (the server
 * then migrates, and seeds).
 */
export const copyTemplateDatabase = (template: TestTemplate, dataDir: string): boolean =>
  copyTemplateDataDir(testDatabases(), template, dataDir);

/**
 * A database of the test's own, migrated (or seeded) already: a copy of the run's template, on
 * PGlite in memory or a PostgreSQL database as TEST_DB says. For tests of a part below the server;
 * a first start's migrations are tested where a server starts on an empty one.
 */
export async function openTestDatabase(template: TestTemplate = 'migrated'): Promise<Database & { drop(): Promise<void> }> {
  const postgres = testDbKind === 'postgres' ? await createPostgresDatabase(template) : undefined;
  const database = await openDatabase({
    databaseUrl: postgres?.url,
    loadDataDir: postgres ? undefined : pgliteDump(testDatabases(), template),
  });
  return {
    ...database,
    async drop() {
      await database.close();
      await postgres?.drop();
    },
  };
}

export async function startTestServer(
  options: {
    seed?: boolean;
    env?: Record<string, string>;
    /** PGlite: starts from this data dir (PGlite's dumpDataDir) instead of the run's template, and migrates it. */
    loadDataDir?: Blob;
  } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-test-'));
  const template: TestTemplate = options.seed ? 'seeded' : 'migrated';
  const postgres = testDbKind === 'postgres' ? await createPostgresDatabase(template) : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    SHOP_URL: 'https://butik.example.se',
    SHOPIFY_WEBHOOK_SECRET: 'test-webhook-secret',
    RATE_LIMITS: '0',
    // A test runs a job when it means to (app.scheduledJobs.runJob with its own clock).
    SCHEDULED_JOBS: 'off',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...options.env,
  });
  // A copy of the run's template is migrated (and seeded) already; without one (or with a database
  // of the test's own in env) the server migrates, and is seeded here.
  const loadDataDir = config.databaseUrl ? undefined : (options.loadDataDir ?? pgliteDump(testDatabases(), template));
  const seeded = config.databaseUrl
    ? config.databaseUrl === postgres?.url && postgresTemplate(testDatabases(), template) !== undefined
    : loadDataDir !== undefined;
  // In-memory PGlite: the data dir holds only the outbox, so no lock is needed.
  const database = await openDatabase({ databaseUrl: config.databaseUrl, loadDataDir });
  const routeTable = routeCollector();
  const app = await buildApp({ config, database, jwtSecret: TEST_JWT_SECRET, onRoute: routeTable.onRoute });
  if (options.seed && !seeded) await seedDemoData(app.db, { password: DEMO_TEST_PASSWORD });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const request: TestServer['request'] = async (method, requestPath, { token, body, headers } = {}) =>
    fetch(url + requestPath, {
      method,
      headers: {
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(method === 'GET' && READ_MODEL_CALLS.test(requestPath) ? { [DATA_VERSION_HEADER]: await dataVersionNow(app) } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });

  return {
    url,
    app,
    database,
    dataDir,
    routes: routeTable.routes,
    personalDataExports: routeTable.personalDataExports,
    routeSchemas: routeTable.schemas,
    request,
    async login(email, password = DEMO_TEST_PASSWORD) {
      const response = await request('POST', '/api/auth/login', { body: { email, password } });
      if (response.status !== 200) throw new Error(`inloggning misslyckades för ${email}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { token: string }).token;
    },
    mails() {
      const outbox = path.join(dataDir, 'outbox');
      if (!fs.existsSync(outbox)) return [];
      return fs
        .readdirSync(outbox)
        .filter((file) => file.endsWith('.json'))
        .sort()
        .map((file) => JSON.parse(fs.readFileSync(path.join(outbox, file), 'utf8')));
    },
    async close() {
      await app.close();
      await database.close();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The calls the read model answers (plugins/read-model.ts). */
const READ_MODEL_CALLS = /^\/api\/(me\/summary|group\/totals|group\/leaderboard-mine|guardian\/children\/)/;

/**
 * The data version now (decision 057): a read model call of the test presents it, as the web
 * presents what its writes' answers carried, so that what the test wrote itself in SQL (or a job
 * it ran) is in the answer, as a request's write would be.
 */
async function dataVersionNow(app: Awaited<ReturnType<typeof buildApp>>): Promise<string> {
  const { rows } = (await app.db.execute(sql`select (pg_current_wal_insert_lsn() - '0/0')::bigint::text as version`)) as unknown as {
    rows: { version: string }[];
  };
  return rows[0]!.version;
}

/**
 * Waits until `check` returns a truthy value (for work the server does after answering). The
 * default deadline only bounds a failure: a test waits for the event, and on a loaded machine the
 * event comes late (an API lane beside the browser tests ran at a seventh of its speed). A shorter
 * `timeoutMs` is for a bound the spec or an issue names ('within a second').
 */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error('villkoret uppfylldes aldrig');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The rows of a leaderboard in its full mode (the default); any other mode fails the test. */
export function fullLeaderboardItems(board: TLeaderboardResponse) {
  if (board.mode !== 'full') throw new Error(`topplistan visas som ${board.mode}, inte full`);
  return board.items;
}
