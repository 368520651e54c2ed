/**
 * LISTEN on one channel, for the change feed of live figures (modules/live, DESIGN D12).
 *
 * PostgreSQL: one dedicated connection outside the pool (a pooled connection is handed to other
 * queries and would lose its LISTEN), kept open for the life of the process. When it is lost the
 * database is marked down, and the connection is made again with backoff; once it listens again
 * `onReconnected` is told, since whatever was announced meanwhile never reached this process.
 * A quiet line is checked every LIVENESS_MS with a query, so a connection a network silently
 * dropped is found and replaced (that query reads nothing: the feed itself is never polled).
 *
 * The listening connection also takes small statements of its own (`query`): the change feed's
 * barriers (db/change-feed.ts) go there, so they never wait for a busy request pool.
 *
 * PGlite: its own `listen`, delivered after each statement of this process's one connection.
 */
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { DatabaseAvailability } from './availability.js';

export interface NotificationHandlers {
  onNotify(payload: string): void;
  /** The listening connection was lost: nothing is delivered until `onReconnected`. */
  onLost?(): void;
  /** The listening connection was lost and listens again: notifications may have been missed. */
  onReconnected(): void;
}

export interface Listening {
  /**
   * One statement on the listening connection. Fails at once while the connection is lost, and a
   * statement unanswered for QUERY_TIMEOUT_MS is taken as a silent line: the connection is made anew.
   */
  query(text: string, values: unknown[]): Promise<Record<string, unknown>[]>;
  /** Stops listening. */
  stop(): Promise<void>;
}

export type Listen = (channel: string, handlers: NotificationHandlers) => Promise<Listening>;

const LIVENESS_MS = 30_000;
const LIVENESS_TIMEOUT_MS = 10_000;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;
const QUERY_TIMEOUT_MS = 5_000;
/** The listening connection's application_name. */
export const LISTENER_NAME = 'saljportalen-listen';

const quoted = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

export function postgresListen(options: {
  connectionString: string;
  availability: DatabaseAvailability;
  log?: { info(object: object, message: string): void; warn(object: object, message: string): void };
}): Listen {
  return async (channel, handlers) => {
    let client: pg.Client | undefined;
    let stopped = false;
    let retryMs = RETRY_FIRST_MS;
    let retryTimer: NodeJS.Timeout | undefined;
    let livenessTimer: NodeJS.Timeout | undefined;

    const lost = (error: unknown) => {
      const current = client;
      client = undefined;
      clearInterval(livenessTimer);
      current?.removeAllListeners('notification');
      current?.on('error', () => {});
      void current?.end().catch(() => {});
      if (stopped) return;
      handlers.onLost?.();
      options.availability.markDown(error);
      // A warning when the connection is lost; its tries to come back (doubling up to every 5 s) are info.
      const firstTry = retryMs === RETRY_FIRST_MS;
      options.log?.[firstTry ? 'warn' : 'info']({ err: error, retryMs }, 'lyssnaranslutningen till PostgreSQL förlorad: ansluter igen');
      retryTimer = setTimeout(() => void connect(true), retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    };

    const connect = async (again: boolean): Promise<void> => {
      // Named, so that an operator (and a test) tells it from the pool's connections in pg_stat_activity.
      const next = new pg.Client({
        connectionString: options.connectionString,
        keepAlive: true,
        connectionTimeoutMillis: 5_000,
        application_name: LISTENER_NAME,
      });
      next.on('error', (error) => {
        if (client === next) lost(error);
      });
      next.on('end', () => {
        if (client === next) lost(new Error('lyssnaranslutningen stängdes'));
      });
      next.on('notification', (message) => {
        if (message.channel === channel && message.payload !== undefined) handlers.onNotify(message.payload);
      });
      try {
        await next.connect();
        await next.query(`LISTEN ${quoted(channel)}`);
      } catch (error) {
        next.removeAllListeners('notification');
        void next.end().catch(() => {});
        if (!again) throw error;
        client = next;
        lost(error);
        return;
      }
      if (stopped) {
        await next.end().catch(() => {});
        return;
      }
      client = next;
      retryMs = RETRY_FIRST_MS;
      livenessTimer = setInterval(() => {
        const checked = next;
        const silent = setTimeout(() => {
          if (client === checked) lost(new Error(`lyssnaranslutningen svarade inte inom ${LIVENESS_TIMEOUT_MS} ms`));
        }, LIVENESS_TIMEOUT_MS);
        checked.query('select 1').then(
          () => clearTimeout(silent),
          (error: unknown) => {
            clearTimeout(silent);
            if (client === checked) lost(error);
          },
        );
      }, LIVENESS_MS);
      livenessTimer.unref();
      if (again) {
        options.log?.info({ channel }, 'lyssnaranslutningen till PostgreSQL är tillbaka');
        options.availability.markUp();
        handlers.onReconnected();
      }
    };

    await connect(false);
    return {
      async query(text, values) {
        const current = client;
        if (!current) throw new Error('lyssnaranslutningen är inte uppe');
        let silent: NodeJS.Timeout | undefined;
        try {
          return await Promise.race([
            current.query<Record<string, unknown>>(text, values).then((result) => result.rows),
            new Promise<never>((_resolve, reject) => {
              silent = setTimeout(() => {
                const error = new Error(`lyssnaranslutningen svarade inte inom ${QUERY_TIMEOUT_MS} ms`);
                if (client === current) lost(error);
                reject(error);
              }, QUERY_TIMEOUT_MS);
            }),
          ]);
        } finally {
          clearTimeout(silent);
        }
      },
      async stop() {
        stopped = true;
        clearTimeout(retryTimer);
        clearInterval(livenessTimer);
        const current = client;
        client = undefined;
        if (current) {
          current.removeAllListeners('notification');
          await current.end().catch(() => {});
        }
      },
    };
  };
}

export function pgliteListen(client: PGlite): Listen {
  return async (channel, handlers) => {
    const unsubscribe = await client.listen(channel, (payload) => handlers.onNotify(payload));
    return {
      query: async (text, values) => (await client.query<Record<string, unknown>>(text, values)).rows,
      async stop() {
        // A closed database has stopped listening already.
        if (!client.closed) await unsubscribe();
      },
    };
  };
}
