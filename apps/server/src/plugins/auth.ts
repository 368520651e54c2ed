import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { prepared } from '../db/prepared.js';
import { users, type EndedSession } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { AccessTokenClaims } from '../lib/access-token.js';
import { unauthenticated, type AuthUser } from '../lib/current-user.js';
import { authUserColumns } from '../db/auth-user-columns.js';

/** The signed-in user's row as authentication reads it: who they are, their token version and ended sessions. */
export type AuthUserRow = Omit<AuthUser, 'sessionId'> & { tokenVersion: number; endedSessions: EndedSession[] };

/**
 * Reads the token's user, and whatever a route wants with it, in one query (undefined: no such
 * user). A loader that has the row at hand (the read model) returns it as it is, not in a promise.
 */
export type AuthUserLoader<Row extends AuthUserRow> = (db: Db, userId: number) => Row | undefined | Promise<Row | undefined>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate`; read it through `currentUser(request)`. */
    authUser?: AuthUser;
    /** The whole row an `app.authenticateWith` loader read; its route knows its shape. */
    authRow?: unknown;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<void>;
    /**
     * `authenticate` as an onRequest hook, with the user read by a route's own loader that carries
     * more of its answer. Synchronous when the loader is: no promise on the seller calls' path.
     */
    authenticateWith<Row extends AuthUserRow>(load: AuthUserLoader<Row>): onRequestHookHandler;
    requireSuperadmin(request: FastifyRequest): Promise<void>;
  }
}

/** Read on every authenticated request, so prepared once per connection. */
const userOfToken = prepared((db) =>
  db
    .select(authUserColumns)
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('auth_user_of_token'),
);

/**
 * Bearer-token authentication. The user row is read on every request so that a password reset or
 * change (token version bump), a logout (ended session) or a lost superadmin flag takes effect at
 * once, not when the token expires.
 */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    // Declared, so that every request object has the same shape from its constructor on.
    app.decorateRequest('authUser', undefined);
    app.decorateRequest('authRow', undefined);

    /** Checks the bearer token against the user's row and sets `request.authUser`; a promise only while the row is awaited. */
    const authenticateRequest = <Row extends AuthUserRow>(request: FastifyRequest, load: AuthUserLoader<Row>): void | Promise<void> => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw unauthenticated();
      const claims = app.accessTokens.verify(token);
      if (!claims) throw unauthenticated();
      const loaded = load(app.db, claims.userId);
      if (loaded instanceof Promise) return loaded.then((row) => acceptRow(request, claims, row));
      acceptRow(request, claims, loaded);
    };
    const acceptRow = (request: FastifyRequest, claims: AccessTokenClaims, row: AuthUserRow | undefined) => {
      if (!row || row.tokenVersion !== claims.tokenVersion) throw unauthenticated();
      // A logged-out session's tokens stay refused until they expire (decision 013).
      const { sessionId } = claims;
      if (sessionId && row.endedSessions.some((ended) => ended.sid === sessionId)) throw unauthenticated();
      const { id, email, fullName, isSuperadmin, activeGroupId } = row;
      request.authUser = sessionId
        ? { id, email, fullName, isSuperadmin, activeGroupId, sessionId }
        : { id, email, fullName, isSuperadmin, activeGroupId };
      request.authRow = row;
    };

    app.decorate(
      'authenticateWith',
      <Row extends AuthUserRow>(load: AuthUserLoader<Row>): onRequestHookHandler =>
        (request, _reply, done) => {
          let pending: void | Promise<void>;
          try {
            pending = authenticateRequest(request, load);
          } catch (error) {
            done(error as Error);
            return;
          }
          if (pending) pending.then(() => done(), done);
          else done();
        },
    );
    const loadUserOfToken: AuthUserLoader<AuthUserRow> = async (db, userId) => (await userOfToken(db).execute({ userId }))[0];
    app.decorate('authenticate', async (request: FastifyRequest) => authenticateRequest(request, loadUserOfToken));

    app.decorate('requireSuperadmin', async (request: FastifyRequest) => {
      await app.authenticate(request);
      if (!request.authUser?.isSuperadmin) throw new AppError('FORBIDDEN', 'Endast superadministratörer har tillgång');
    });
  },
  { name: 'auth', dependencies: ['core'] },
);
