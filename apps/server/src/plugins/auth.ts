import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { eq, sql } from 'drizzle-orm';
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

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate`; read it through `currentUser(request)`. */
    authUser?: AuthUser;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<void>;
    requireSuperadmin(request: FastifyRequest): Promise<void>;
  }
}

/** Read on every authenticated request, so prepared once per connection. */
const userOfToken = prepared((db) =>
  db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      isSuperadmin: users.isSuperadmin,
      activeGroupId: users.activeGroupId,
      tokenVersion: users.tokenVersion,
    })
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

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw unauthenticated();
      const claims = await app.accessTokens.verify(token);
      if (!claims) throw unauthenticated();
      const [user] = await userOfToken(app.db).execute({ userId: claims.userId });
      if (!user || user.tokenVersion !== claims.tokenVersion) throw unauthenticated();
      request.authUser = user;
    });

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
