import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { issueRefreshToken, REFRESH_COOKIE, REFRESH_TOKEN_TTL_DAYS } from './refresh-tokens.js';

export function setRefreshCookie(app: FastifyInstance, reply: FastifyReply, token: string): void {
  reply.setCookie(REFRESH_COOKIE, token, {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'strict',
    secure: app.config.https,
    maxAge: REFRESH_TOKEN_TTL_DAYS * 86_400,
  });
}

export function clearRefreshCookie(reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, { path: '/api/auth' });
}

/**
 * A short-lived access token for the user, reflecting their current token version, tied to the
 * session (refresh family) it was issued for so that logout can end it.
 */
export async function signAccessToken(app: FastifyInstance, userId: number, sessionId: string | undefined): Promise<string> {
  const [user] = await app.db.select({ tokenVersion: users.tokenVersion }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHENTICATED', 'Kontot finns inte längre');
  return app.accessTokens.sign({ userId, tokenVersion: user.tokenVersion, ...(sessionId ? { sessionId } : {}) });
}

/**
 * Records that the user used the portal (`users.last_sign_in_at`), for retention: an account of
 * archived groups only, with no sign-in for 24 months, is erased (modules/privacy/retention.ts).
 * A session kept alive by refreshes counts too, written at most once a day.
 */
export async function recordSignIn(db: Db, userId: number, options: { atMostDaily?: boolean } = {}): Promise<void> {
  await db
    .update(users)
    .set({ lastSignInAt: sql`now()` })
    .where(
      and(
        eq(users.id, userId),
        options.atMostDaily ? or(isNull(users.lastSignInAt), lt(users.lastSignInAt, sql`now() - interval '1 day'`)) : undefined,
      ),
    );
}

/** Signs the user in: an access token in the answer, a rotating refresh token in a cookie. */
export async function startSession(app: FastifyInstance, reply: FastifyReply, userId: number): Promise<{ token: string }> {
  const sessionId = crypto.randomUUID();
  await recordSignIn(app.db, userId);
  setRefreshCookie(app, reply, await issueRefreshToken(app.db, userId, sessionId));
  return { token: await signAccessToken(app, userId, sessionId) };
}
