/**
 * The PostgreSQL pool of a server process, bounded so that a database that goes away or slows
 * down makes requests fail within a known time instead of hanging (decision 021,
 * docs/reliability.md). Every limit is here, in one table.
 */
import pg from 'pg';
import { DatabaseAvailability, type AvailabilityLog } from './availability.js';
import { markDriverError } from './driver-errors.js';

export const DATABASE_LIMITS = {
  /** A new connection within this time, else the request fails: a database that is away is told fast. */
  connectMs: 5_000,
  /**
   * A free connection of a full pool within this time, else the request fails. Longer than
   * connectMs: a burst on a database that answers (a class registering at once) is not an outage,
   * while requests waiting on a database that is away fail sooner, with the connections they wait for.
   */
  poolWaitMs: 10_000,
  /**
   * Queries that may wait for a connection of a full pool; one more fails at once. A request may
   * wait with more than one (its limit counters), so a burst of 100 requests from one school
   * already filled a line of 200.
   */
  maxWaiting: 1_000,
  /** How long one statement waits for a row or table lock another transaction holds. */
  lockMs: 5_000,
  /** How long one statement may run on the server. */
  statementMs: 10_000,
  /**
   * How long the server may stay silent on a statement sent (a dropped route, a hung host): then the
   * connection is closed, which also rolls its transaction back. Longer than statementMs, so a
   * statement PostgreSQL ends itself is answered with its own error first.
   */
  silentLineMs: 12_000,
  /** A transaction left open by a process that vanished holds its locks this long at most. */
  idleInTransactionMs: 30_000,
} as const;

/** Session settings that carry the server-side limits (pg's `options`, on every new connection). */
export const TIMEOUT_SETTINGS =
  `-c statement_timeout=${DATABASE_LIMITS.statementMs} -c lock_timeout=${DATABASE_LIMITS.lockMs}` +
  ` -c idle_in_transaction_session_timeout=${DATABASE_LIMITS.idleInTransactionMs}`;

/** A request that found the pool full and its waiting line too. */
export class PoolQueueFullError extends Error {
  readonly code = 'DATABASE_POOL_FULL';
  constructor() {
    super(`alla ${DATABASE_LIMITS.maxWaiting} platser i kön till databasen är upptagna`);
    this.name = 'PoolQueueFullError';
  }
}

/** The error a silent line's queries end with. */
export class SilentDatabaseError extends Error {
  readonly code = 'DATABASE_SILENT';
  constructor() {
    super(`PostgreSQL svarade inte inom ${DATABASE_LIMITS.silentLineMs} ms: anslutningen stängs`);
    this.name = 'SilentDatabaseError';
  }
}

// pg's callback overloads take specific parameters; the wrappers here pass them through untouched.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Callback = (...args: any[]) => void;
const unguarded = new WeakSet<pg.Client>();

/**
 * Marks a connection as exempt from every limit (the migrations: an index on a large table may take
 * minutes). Its session settings are lifted too; release it with `release(true)` afterwards.
 */
export async function liftLimits(client: pg.PoolClient): Promise<void> {
  unguarded.add(client as unknown as pg.Client);
  await client.query('set statement_timeout = 0; set lock_timeout = 0; set idle_in_transaction_session_timeout = 0');
}

function guardedClientClass(availability: DatabaseAvailability) {
  return class GuardedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      // The pool's own timeout (poolWaitMs) is for waiting in its line; a connection gets connectMs.
      super(typeof config === 'string' ? config : { ...config, connectionTimeoutMillis: DATABASE_LIMITS.connectMs });
      // A connection lost while checked out (in a transaction) fails its queries; unheard, the
      // 'error' it also emits would end the process. The pool drops the connection on release.
      this.on('error', (error: Error) => availability.markDown(error));
    }

    override connect(callback?: Callback): never {
      const report = (error?: unknown) => {
        if (error) availability.markDown(markDriverError(error));
        else availability.markUp();
      };
      if (callback) {
        return super.connect((error?: Error) => {
          report(error);
          callback(error);
        }) as never;
      }
      return super.connect().then(
        (client) => {
          report();
          return client;
        },
        (error: unknown) => {
          report(error);
          throw error;
        },
      ) as never;
    }

    /** Every query gets a watchdog: a line silent for silentLineMs is closed (see DATABASE_LIMITS). */
    override query(...args: unknown[]): never {
      const call = super.query.bind(this) as (...a: unknown[]) => unknown;
      const first = args[0] as { submit?: unknown; callback?: unknown } | undefined;
      if (unguarded.has(this) || (first && typeof first === 'object' && typeof first.submit === 'function')) {
        return call(...args) as never;
      }
      const timer = setTimeout(() => {
        const connection = (this as unknown as { connection?: { stream?: { destroy(error?: Error): void } } }).connection;
        connection?.stream?.destroy(new SilentDatabaseError());
      }, DATABASE_LIMITS.silentLineMs);
      const stop = () => clearTimeout(timer);
      const last = args.at(-1);
      if (typeof last === 'function') {
        args[args.length - 1] = (error: unknown, ...result: unknown[]) => {
          stop();
          (last as Callback)(markDriverError(error), ...result);
        };
        return call(...args) as never;
      }
      if (first && typeof first === 'object' && typeof first.callback === 'function') {
        const callback = first.callback as Callback;
        first.callback = (error: unknown, ...result: unknown[]) => {
          stop();
          callback(markDriverError(error), ...result);
        };
        return call(...args) as never;
      }
      const result = call(...args) as Promise<unknown> | undefined;
      if (!result || typeof result.then !== 'function') {
        stop();
        return result as never;
      }
      return result.then(
        (value) => {
          stop();
          return value;
        },
        (error: unknown) => {
          stop();
          throw markDriverError(error);
        },
      ) as never;
    }
  };
}

/** pg's pool with a bounded waiting line: past maxWaiting a request fails at once. */
class BoundedPool extends pg.Pool {
  override connect(callback?: Callback): never {
    const full = this.totalCount >= (this.options.max ?? 10) && this.idleCount === 0;
    if (full && this.waitingCount >= DATABASE_LIMITS.maxWaiting) {
      const error = markDriverError(new PoolQueueFullError());
      if (callback) {
        process.nextTick(() => callback(error));
        return undefined as never;
      }
      return Promise.reject(error) as never;
    }
    // The pool's own failures (its wait for a free connection timed out) are the driver's too.
    if (callback)
      return super.connect(((error: unknown, ...rest: unknown[]) => callback(markDriverError(error), ...rest)) as never) as never;
    return super.connect().catch((error: unknown) => {
      throw markDriverError(error);
    }) as never;
  }
}

/**
 * The pool every request uses: connection and wait limits, the session settings `options`
 * (plus the server-side limits unless `limits` is false, as for a bulk load), and an
 * availability that follows whether PostgreSQL answers.
 */
export function createPostgresPool(options: {
  connectionString: string;
  max: number;
  sessionSettings: string;
  limits: boolean;
  log?: AvailabilityLog;
}): { pool: pg.Pool; availability: DatabaseAvailability } {
  const availability = new DatabaseAvailability(options.log);
  if (!options.limits) {
    const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max, options: options.sessionSettings });
    return { pool, availability };
  }
  const pool = new BoundedPool({
    connectionString: options.connectionString,
    max: options.max,
    options: `${options.sessionSettings} ${TIMEOUT_SETTINGS}`,
    connectionTimeoutMillis: DATABASE_LIMITS.poolWaitMs,
    keepAlive: true,
    Client: guardedClientClass(availability) as unknown as typeof pg.Client,
  });
  return { pool, availability };
}
