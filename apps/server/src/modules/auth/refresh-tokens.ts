import crypto from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { refreshTokens, users } from '../../db/schema.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../lib/access-token.js';
import type { RefreshSuccessor } from '../../lib/refresh-successor.js';
import { randomToken, sha256 } from '../../lib/random-codes.js';

export const REFRESH_TOKEN_TTL_DAYS = 30;
export const REFRESH_COOKIE = 'sp_refresh';
export const REFRESH_GRACE_SECONDS = 30;
/** How far another server's clock may be ahead when it checks an ended session's token. */
const CLOCK_SKEW_SECONDS = 60;

export async function issueRefreshToken(db: Db, userId: number, familyId: string = crypto.randomUUID()): Promise<string> {
  const token = randomToken();
  await db.insert(refreshTokens).values({
    userId,
    tokenHash: sha256(token),
    familyId,
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * 86_400_000),
  });
  return token;
}

/**
 * Exchanges a refresh token for its successor (rotation). Two tabs, or a retry after a lost
 * answer, may present the same token at once: within REFRESH_GRACE_SECONDS of its rotation a token
 * gives the same successor again (decision 013). Presented later, it was copied: the whole family
 * is revoked and the caller must sign in again.
 */
export async function rotateRefreshToken(
  db: Db,
  token: string,
  successorOf: RefreshSuccessor,
): Promise<{ userId: number; familyId: string; token: string } | null> {
  const next = successorOf(token);
  return db.transaction(async (tx) => {
    // The row lock orders concurrent refreshes of one token: the second sees the first's rotation.
    const [row] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256(token)))
      .for('update');
    if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
    const session = { userId: row.userId, familyId: row.familyId, token: next };
    if (row.rotatedAt) {
      if (Date.now() - row.rotatedAt.getTime() < REFRESH_GRACE_SECONDS * 1000) return session;
      // Its access tokens end too: whoever copied the token may hold one of them.
      await endSession(tx, row);
      return null;
    }
    await tx.update(refreshTokens).set({ rotatedAt: new Date() }).where(eq(refreshTokens.id, row.id));
    await tx.insert(refreshTokens).values({
      userId: row.userId,
      tokenHash: sha256(next),
      familyId: row.familyId,
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * 86_400_000),
    });
    return session;
  });
}

/**
 * Ends one session: its refresh family is revoked, and its access tokens are refused until the
 * last of them has expired (listed on the user row, which authentication reads anyway). Other
 * sessions of the user go on.
 */
export async function endSession(db: Db | Tx, session: { userId: number; familyId: string }): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, session.familyId), isNull(refreshTokens.revokedAt)));
  const lastTokenExpires = sql`now() + make_interval(secs => ${ACCESS_TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS})`;
  await db
    .update(users)
    .set({
      endedSessions: sql`coalesce(
          (select jsonb_agg(ended) from jsonb_array_elements(${users.endedSessions}) as ended
           where (ended ->> 'until')::timestamptz > now()),
          '[]'::jsonb)
        || jsonb_build_array(jsonb_build_object('sid', ${session.familyId}::text, 'until', ${lastTokenExpires}))`,
    })
    .where(eq(users.id, session.userId));
}

/** Logout: ends the session of the refresh token presented, if it is one of ours. */
export async function endSessionOfRefreshToken(db: Db, token: string): Promise<void> {
  const [row] = await db
    .select({ userId: refreshTokens.userId, familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256(token)));
  if (row) await endSession(db, row);
}

/**
 * Revokes every refresh token of the user but those of the session `keepFamilyId` (a password or
 * e-mail change keeps the session that made it); with none given, every one.
 */
export async function revokeAllRefreshTokens(db: Db | Tx, userId: number, keepFamilyId?: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined,
      ),
    );
}
