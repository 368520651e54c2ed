import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.js';
import { acquireDataDirLock } from './data-dir-lock.js';
import { DatabaseAvailability } from './availability.js';
import { isDriverError } from './driver-errors.js';
import { createPostgresPool, liftLimits } from './postgres-pool.js';
import { dumpRunningPglite } from './pglite-dump.js';
import { pgliteListen, postgresListen, type Listen } from './notifications.js';

export type Schema = typeof schema;
/** One type for both drivers: every query is written once (DESIGN D3). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * The embedded database only: a SQL dump taken while the server keeps running: its files are
   * copied (queries wait for that, not the event loop) and the copy is dumped in a worker thread
   * (db/pglite-dump.ts), so the running database's own session is never touched and requests are
   * answered meanwhile; the copy holds what was committed at that moment, like the files after a crash.
   */
  dump?(): Promise<string>;
  /** PostgreSQL only: the connection pool, whose counts the metrics show. */
  pool?: Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;
  /** Whether PostgreSQL answers; `onRestored` is the hook for state kept outside requests (PGlite never goes away). */
  availability: DatabaseAvailability;
  /** LISTEN on a channel: a dedicated connection outside the pool on PostgreSQL, PGlite's own listen (db/notifications.ts). */
  listen: Listen;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  // Source layout (src/db) and bundled layout (dist) both find the folder beside the package.
  fs.existsSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'migrations')) ? 'migrations' : '../src/db/migrations',
);

/**
 * PGlite's default start parameters include `-F` (fsync off): a crash could lose committed
 * data. We keep every default except that one (DESIGN D3).
 */
export const pgliteStartParams = PGlite.defaultStartParams.filter((param) => param !== '-F');

/**
 * Session settings of every PostgreSQL connection (measured in bench/RESULTS.md):
 * - random_page_cost 1.1: the working set (the rollups, the indexes of the rows a request reads)
 *   stays in memory, where a random read costs about what a sequential one does; the default (4)
 *   prices it as a spinning disk and would rather scan every user than look up a group's 500.
 * - plan_cache_mode force_generic_plan: applies only to our named prepared statements (db/prepared.ts,
 *   the admin's seller lists), whose best plan does not depend on the values; otherwise PostgreSQL
 *   keeps planning the seller list anew on every request, which took longer than running it.
 */
const SESSION_SETTINGS = '-c random_page_cost=1.1 -c plan_cache_mode=force_generic_plan';

/** Key of the advisory lock the migrations run under (any constant bigint; the seed's is 4242). */
export const MIGRATION_LOCK_KEY = 7_746_315_027;

/**
 * Runs the migrations on one connection that holds a session advisory lock meanwhile. Servers
 * started at once on one database would otherwise all create the same types and tables, and all
 * but one fail (`duplicate key … membership_role`); under the lock the first migrates and the
 * others wait, then find nothing left to do.
 */
async function migrateUnderLock(pool: pg.Pool): Promise<MigrationsRun> {
  const connection = await pool.connect();
  try {
    // No time limit here: the lock waits for another process's migrations, an index may take long.
    await liftLimits(connection);
    await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      // Counted under the lock: a process started at the same time logs only what it ran itself.
      const locked = drizzlePg(connection) as unknown as Db;
      const before = await appliedMigrations(locked);
      await migratePg(drizzlePg(connection), { migrationsFolder });
      return { before, after: await appliedMigrations(locked) };
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    }
  } finally {
    // Closed rather than pooled: it has no limits, and closing ends a lock that could not be released.
    connection.release(true);
  }
}

/** Where the database reports what it does outside a request: the server's logger (main.ts). */
export interface DatabaseLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * How long the first connection to PostgreSQL may take. Without a limit, a host that accepts the
 * connection and never answers holds the start for ever, silently.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

const migrationTags = (): string[] =>
  (
    JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { idx: number; tag: string }[] }
  ).entries
    .sort((a, b) => a.idx - b.idx)
    .map((entry) => entry.tag);

/** Migrations this server knows, and how many the database has applied (GET /api/ready). */
export async function migrationState(db: Db): Promise<{ known: number; applied: number }> {
  knownMigrations ??= migrationTags().length;
  return { known: knownMigrations, applied: await appliedMigrations(db) };
}
let knownMigrations: number | undefined;

async function appliedMigrations(db: Db): Promise<number> {
  const rowsOf = async (statement: ReturnType<typeof sql>) =>
    ((await db.execute(statement)) as unknown as { rows: Record<string, unknown>[] }).rows;
  const [table] = await rowsOf(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!table?.present) return 0;
  const [count] = await rowsOf(sql`select count(*)::int as applied from drizzle.__drizzle_migrations`);
  return Number(count?.applied ?? 0);
}

/** How many migrations were applied before and after this process ran the missing ones. */
interface MigrationsRun {
  before: number;
  after: number;
}

/** Logs which migrations this process ran (an operator reads UPGRADING.md by their names). */
function logMigrations({ before, after }: MigrationsRun, log: DatabaseLog | undefined): void {
  const ran = migrationTags().slice(before, after);
  log?.info(
    { migrations: ran, applied: after },
    ran.length ? `databasmigreringar körda: ${ran.join(', ')}` : 'databasen är redan migrerad',
  );
}

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  log?: DatabaseLog;
  /**
   * PostgreSQL only: the time limits of DATABASE_LIMITS (postgres-pool.ts) on every query, on by
   * default. Off for bulk loads that run long statements on purpose (the benchmark data).
   */
  limits?: boolean;
  /**
   * In-memory PGlite only: starts from this data dir (PGlite's dumpDataDir) instead of an empty
   * database. The tests copy one migrated (or seeded) database per server this way (decision 055).
   */
  loadDataDir?: Blob;
}): Promise<Database> {
  const { log } = options;
  if (options.databaseUrl) {
    // One connection first, with a time limit, so that an unreachable or silent server fails the start.
    const first = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    await first.connect();
    await first.end();
    const { pool, availability } = createPostgresPool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      sessionSettings: SESSION_SETTINGS,
      limits: options.limits ?? true,
      log,
    });
    // An idle connection can be cut by the server (restart, failover, a dropped test database);
    // unhandled, that 'error' event would end the process. The pool replaces the connection.
    pool.on('error', (error) => {
      // One warning per outage (markDown's); each further idle connection it closes is info.
      const known = availability.isDown;
      availability.markDown(error);
      if (log) log[known ? 'info' : 'warn']({ err: error }, 'PostgreSQL-anslutning stängd');
      else if (!known) console.warn(`PostgreSQL-anslutning stängd: ${error.message}`);
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    try {
      logMigrations(await migrateUnderLock(pool), log);
    } catch (error) {
      await pool.end();
      throw error;
    }
    const listen = postgresListen({ connectionString: options.databaseUrl, availability, log });
    return { db, kind: 'postgres', pool, availability, listen, close: () => pool.end() };
  }

  let releaseLock = () => {};
  let client: PGlite;
  if (options.dataDir) {
    const pgDataDir = path.join(options.dataDir, 'pgdata');
    fs.mkdirSync(pgDataDir, { recursive: true });
    releaseLock = acquireDataDirLock(options.dataDir);
    try {
      client = await PGlite.create(pgDataDir, { startParams: pgliteStartParams });
    } catch (error) {
      // Unopened, the data dir is free again for the next attempt.
      releaseLock();
      throw error;
    }
  } else {
    client = await PGlite.create({ startParams: pgliteStartParams, ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) });
  }
  const close = async () => {
    await client.close();
    releaseLock();
  };
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  try {
    await client.exec(`set random_page_cost = 1.1`);
    // One process per data dir (its lock): nothing else migrates between the counts.
    const before = await appliedMigrations(db);
    await migratePglite(drizzlePglite(client), { migrationsFolder });
    logMigrations({ before, after: await appliedMigrations(db) }, log);
  } catch (error) {
    // A start that fails here leaves the data dir unlocked for the next one.
    await close();
    throw error;
  }
  return {
    db,
    kind: 'pglite',
    availability: new DatabaseAvailability(log),
    listen: pgliteListen(client),
    dump: () => dumpRunningPglite(client, options.dataDir ? path.join(options.dataDir, 'pgdata') : undefined),
    close,
  };
}

/**
 * True when a failed query carries one of these PostgreSQL SQLSTATEs, from node-postgres or
 * PGlite, also when drizzle wraps the driver's error in its own (as `cause`).
 */
function hasPostgresCode(error: unknown, codes: string[]): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (codes.includes((current as { code?: unknown }).code as string)) return true;
  }
  return false;
}

/**
 * The database is away or too slow, not the request at fault: a connection refused, reset, lost
 * or timed out, a full pool, a statement over statement_timeout (57014) or a lock over
 * lock_timeout (55P03), a server shutting down or refusing connections (57P0x, 53300, class 08),
 * a transaction ended by idle_in_transaction_session_timeout (25P03), or one ended to break a
 * deadlock or a serialization conflict (40P01, 40001: the same request succeeds when repeated).
 * Answered with 503 and Retry-After. Only an
 * error that came out of the database driver counts (driver-errors.ts): the request's own socket
 * fails with the same codes when its client hangs up, and that is no outage.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const sqlStates = ['57014', '55P03', '57P01', '57P02', '57P03', '53300', '25P03', '40P01', '40001'];
  const systemCodes = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'];
  const ownCodes = ['DATABASE_POOL_FULL', 'DATABASE_SILENT'];
  const driverMessages =
    /^(Connection terminated|timeout exceeded when trying to connect|timeout expired$|Client has encountered a connection error|Client was closed|Cannot use a pool after calling end)/;
  const seen = new Set<unknown>();
  // `fromDriver`: this error or one that wraps it came out of the database driver (drizzle wraps the
  // driver's error as its cause; a connection refused on every address is one AggregateError).
  const visit = (current: unknown, fromDriver: boolean): boolean => {
    if (!(current instanceof Error) || seen.has(current)) return false;
    seen.add(current);
    const driver = fromDriver || isDriverError(current);
    const code = (current as { code?: unknown }).code;
    if (
      driver &&
      typeof code === 'string' &&
      (sqlStates.includes(code) || code.startsWith('08') || systemCodes.includes(code) || ownCodes.includes(code))
    ) {
      return true;
    }
    if (driver && driverMessages.test(current.message)) return true;
    if (current instanceof AggregateError && current.errors.some((inner) => visit(inner, driver))) return true;
    return visit(current.cause, driver);
  };
  return visit(error, false);
}

/** unique_violation (23505). */
export const isUniqueViolation = (error: unknown): boolean => hasPostgresCode(error, ['23505']);

/**
 * Text PostgreSQL cannot store: NUL in text (22021 character_not_in_repertoire) or in jsonb (22P05
 * untranslatable_character), or a lone surrogate's escape in jsonb (22P02 with a detail about the
 * surrogate; 22P02 alone is any malformed value, which is the server's fault).
 */
export function isUnstorableText(error: unknown): boolean {
  if (hasPostgresCode(error, ['22021', '22P05'])) return true;
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const { code, detail } = current as { code?: unknown; detail?: unknown };
    if (code === '22P02' && typeof detail === 'string' && /surrogate/i.test(detail)) return true;
  }
  return false;
}
