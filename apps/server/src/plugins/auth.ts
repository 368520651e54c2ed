import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { prepared } from '../db/prepared.js';
import { users } from '../db/schema.js';
import { AppError } from '../errors.js';

export interface AuthUser {
  id: number;
  email: string;
  fullName: string;
  isSuperadmin: boolean;
  activeGroupId: number | null;
}

/** The signed-in user's row as authentication reads it: who they are and their token version. */
export type AuthUserRow = AuthUser & { tokenVersion: number };

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
 * Bearer-token authentication. The user row is read on every request so that a password reset
 * (token version bump) or a lost superadmin flag takes effect at once, not when the token expires.
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
        const { id, email, fullName, isSuperadmin, activeGroupId } = row;
        request.authUser = { id, email, fullName, isSuperadmin, activeGroupId };
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
