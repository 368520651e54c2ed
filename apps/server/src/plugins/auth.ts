import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { prepared } from '../db/prepared.js';
import { users, type EndedSession } from '../db/schema.js';
import { AppError } from '../errors.js';

export interface AuthUser {
  id: number;
  email: string;
  fullName: string;
  isSuperadmin: boolean;
  activeGroupId: number | null;
  /** The session (refresh family) of the access token; none for tokens issued before sessions had ids. */
  sessionId?: string;
}

/** The signed-in user's row as authentication reads it: who they are, their token version and ended sessions. */
export type AuthUserRow = Omit<AuthUser, 'sessionId'> & { tokenVersion: number; endedSessions: EndedSession[] };

/** Reads the token's user, and whatever a route wants with it, in one query (undefined: no such user). */
export type AuthUserLoader<Row extends AuthUserRow> = (db: Db, userId: number) => Promise<Row | undefined>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate`; read it through `currentUser(request)`. */
    authUser?: AuthUser;
    /** The whole row an `app.authenticateWith` loader read; its route knows its shape. */
    authRow?: unknown;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<void>;
    /** `authenticate`, with the user read by a route's own query that carries more of its answer. */
    authenticateWith<Row extends AuthUserRow>(load: AuthUserLoader<Row>): (request: FastifyRequest) => Promise<void>;
    requireSuperadmin(request: FastifyRequest): Promise<void>;
  }
}

/** The columns every authenticating query reads (spread them into a select). */
export const authUserColumns = {
  id: users.id,
  email: users.email,
  fullName: users.fullName,
  isSuperadmin: users.isSuperadmin,
  activeGroupId: users.activeGroupId,
  tokenVersion: users.tokenVersion,
  endedSessions: users.endedSessions,
};

/** Read on every authenticated request, so prepared once per connection. */
const userOfToken = prepared((db) =>
  db
    .select(authUserColumns)
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('auth_user_of_token'),
);

const unauthenticated = () => new AppError('UNAUTHENTICATED', 'Du är inte inloggad eller sessionen har gått ut');

/**
 * Bearer-token authentication. The user row is read on every request so that a password reset or
 * change (token version bump), a logout (ended session) or a lost superadmin flag takes effect at
 * once, not when the token expires.
 */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('authUser', undefined);

    const authenticateWith =
      <Row extends AuthUserRow>(load: AuthUserLoader<Row>) =>
      async (request: FastifyRequest) => {
        const header = request.headers.authorization;
        const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
        if (!token) throw unauthenticated();
        const claims = await app.accessTokens.verify(token);
        if (!claims) throw unauthenticated();
        const row = await load(app.db, claims.userId);
        if (!row || row.tokenVersion !== claims.tokenVersion) throw unauthenticated();
        // A logged-out session's tokens stay refused until they expire (decision 013).
        const { sessionId } = claims;
        if (sessionId && row.endedSessions.some((ended) => ended.sid === sessionId)) throw unauthenticated();
        const { id, email, fullName, isSuperadmin, activeGroupId } = row;
        request.authUser = { id, email, fullName, isSuperadmin, activeGroupId, ...(sessionId ? { sessionId } : {}) };
        request.authRow = row;
      };
    app.decorate('authenticateWith', authenticateWith);
    app.decorate(
      'authenticate',
      authenticateWith(async (db, userId) => (await userOfToken(db).execute({ userId }))[0]),
    );

    app.decorate('requireSuperadmin', async (request: FastifyRequest) => {
      await app.authenticate(request);
      if (!request.authUser?.isSuperadmin) throw new AppError('FORBIDDEN', 'Endast superadministratörer har tillgång');
    });
  },
  { name: 'auth', dependencies: ['core'] },
);

/** The signed-in user of a route that ran `app.authenticate` first. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthenticated();
  return request.authUser;
}
