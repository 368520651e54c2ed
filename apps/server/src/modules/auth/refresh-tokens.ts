import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { refreshTokens } from '../../db/schema.js';
import { randomToken, sha256 } from '../../lib/random-codes.js';

export const REFRESH_TOKEN_TTL_DAYS = 30;
export const REFRESH_COOKIE = 'sp_refresh';

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
 * Exchanges a refresh token for a new one (rotation). A token presented after it was rotated
 * means it was copied: the whole family is revoked and the caller must sign in again.
 */
export async function rotateRefreshToken(db: Db, token: string): Promise<{ userId: number; token: string } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256(token)))
      .for('update');
    if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
    if (row.rotatedAt) {
      await tx.update(refreshTokens).set({ revokedAt: new Date() }).where(eq(refreshTokens.familyId, row.familyId));
      return null;
    }
    await tx.update(refreshTokens).set({ rotatedAt: new Date() }).where(eq(refreshTokens.id, row.id));
    const next = randomToken();
    await tx.insert(refreshTokens).values({
      userId: row.userId,
      tokenHash: sha256(next),
      familyId: row.familyId,
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * 86_400_000),
    });
    return { userId: row.userId, token: next };
  });
}

export async function revokeRefreshToken(db: Db, token: string): Promise<void> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256(token)));
  if (row) await db.update(refreshTokens).set({ revokedAt: new Date() }).where(eq(refreshTokens.familyId, row.familyId));
}

export async function revokeAllRefreshTokens(db: Db | Tx, userId: number): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
