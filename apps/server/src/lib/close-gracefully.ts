import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long shutdown waits for handlers whose callers hung up (a PDF, a payout: seconds at most). */
const SHUTDOWN_GRACE_MS = 30_000;

/**
 * How long a keep-alive connection with nothing on it is kept open after SIGTERM. A client that
 * sends its next request within this time gets an answer (with `Connection: close`); one that
 * stays quiet is closed. Closing a connection the moment it falls idle would reset a request the
 * client had already sent but the server had not yet read.
 */
export const IDLE_CONNECTION_GRACE_MS = 1000;

/** Node's own mark of a connection whose response is still being written (what closeIdleConnections reads too). */
const isAnswering = (socket: Socket) => Boolean((socket as Socket & { _httpMessage?: unknown })._httpMessage);

/** One turn of the event loop, with its I/O: connections and requests that have arrived are taken in. */
const afterPendingInput = () => new Promise<void>((resolve) => setTimeout(() => setImmediate(resolve), 0));

/** Servers whose shutdown has begun (keyed by their http.Server, which every plugin context shares). */
const drainingServers = new WeakSet<object>();

/** True from the moment shutdown begins: GET /api/ready then answers 503 (decision 021). */
export const isDraining = (app: FastifyInstance): boolean => drainingServers.has(app.server);

/** Each server's open connections, tracked from the start (app.ts) so that shutdown can watch them. */
const openConnections = new WeakMap<object, Set<Socket>>();

/** Tracks the server's open connections. Called once by buildApp, before listen. */
export function trackConnections(app: FastifyInstance): void {
  const sockets = new Set<Socket>();
  openConnections.set(app.server, sockets);
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
}

/**
 * Node closes the idle connections at once when the server closes: one whose next request is
 * still unread in the socket's buffer (PGlite holds the event loop while it runs a query) is then
 * reset. This replaces that for the shutdown: a connection is closed only when it is not answering
 * and has received nothing for IDLE_CONNECTION_GRACE_MS, checked after the event loop has read
 * what arrived. (A plain app.close(), as in tests, keeps Node's way.)
 */
function closeOnlyLastingIdleConnections(app: FastifyInstance): void {
  const sockets = openConnections.get(app.server) ?? new Set<Socket>();
  const lastInput = new Map<Socket, { bytesRead: number; since: number }>();
  app.server.closeIdleConnections = () => {
    setImmediate(() => {
      const now = Date.now();
      for (const socket of sockets) {
        const seen = lastInput.get(socket);
        if (!seen || seen.bytesRead !== socket.bytesRead || isAnswering(socket)) {
          lastInput.set(socket, { bytesRead: socket.bytesRead, since: now });
        } else if (now - seen.since >= IDLE_CONNECTION_GRACE_MS) {
          socket.destroy();
        }
      }
    });
  };
}

/**
 * Stops taking connections, answers every request that arrives on the open ones (with
 * `Connection: close`, so that the client does not send another there), closes each connection
 * that stays idle, waits for handlers whose callers hung up, then closes the database (the
 * Fastify options that make this so are in app.ts: return503OnClosing and forceCloseConnections
 * off; trackConnections above).
 */
export async function closeGracefully(app: FastifyInstance, database: { close(): Promise<void> }): Promise<void> {
  drainingServers.add(app.server);
  // Connections already waiting in the listener's queue are accepted before it closes: closing
  // it would reset them.
  await afterPendingInput();
  closeOnlyLastingIdleConnections(app);
  const closeIdle = setInterval(() => app.server.closeIdleConnections(), 50);
  await app.close();
  clearInterval(closeIdle);
  await app.requestsSettled(SHUTDOWN_GRACE_MS);
  await database.close();
}
