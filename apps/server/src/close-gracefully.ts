import type { FastifyInstance } from 'fastify';
import type { Database } from './db/client.js';

/** How long shutdown waits for handlers whose callers hung up (a PDF, a payout: seconds at most). */
const SHUTDOWN_GRACE_MS = 30_000;

/**
 * Stops taking requests, finishes the ones in flight, then closes the database. app.close stops
 * accepting connections and waits for the open ones. A keep-alive connection that carried a
 * request would then hold the process for its whole keep-alive timeout (72 s), so each is closed
 * as soon as its answer is sent. A handler whose caller hung up has no connection left to wait
 * for: the database closes only once every handler has finished (plugins/in-flight.ts).
 */
export async function closeGracefully(app: FastifyInstance, database: Database): Promise<void> {
  const closeIdle = setInterval(() => app.server.closeIdleConnections(), 50);
  await app.close();
  clearInterval(closeIdle);
  await app.requestsSettled(SHUTDOWN_GRACE_MS);
  await database.close();
}
