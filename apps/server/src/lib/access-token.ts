import crypto from 'node:crypto';
import { SignJWT } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessTokenClaims {
  userId: number;
  tokenVersion: number;
  /** The session (refresh family) the token belongs to; tokens issued before sessions had ids have none. */
  sessionId?: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodeJsonObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function createAccessTokens(secret: string) {
  // Imported once: given the raw bytes, jose would import the key again for every token.
  const signingKey = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const verifyingKey = crypto.createSecretKey(Buffer.from(secret, 'utf8'));
  return {
    async sign({ userId, tokenVersion, sessionId }: AccessTokenClaims): Promise<string> {
      return new SignJWT({ ver: tokenVersion, ...(sessionId ? { sid: sessionId } : {}) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(userId))
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
        .sign(await signingKey);
    },
    /**
     * Null for anything that is not a valid, unexpired token of ours. Every authenticated request
     * checks one, so this is the HS256 check written out synchronously: jose's goes through
     * WebCrypto's thread pool, which took a tenth of a seller call's CPU (bench/RESULTS.md). It is
     * at least as strict as jose's `jwtVerify(…, { algorithms: ['HS256'] })`: only base64url parts,
     * the header exactly HS256 without `crit`, the signature compared in constant time, `exp` required
     * and in the future, `nbf` and `iat` numbers when present (access-token.test.ts checks it
     * against jose).
     */
    async verify(token: string): Promise<AccessTokenClaims | null> {
      const parts = token.split('.');
      if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return null;
      const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
      const header = decodeJsonObject(encodedHeader);
      if (!header || header.alg !== 'HS256' || 'crit' in header || ('b64' in header && header.b64 !== true)) return null;
      const expected = crypto.createHmac('sha256', verifyingKey).update(`${encodedHeader}.${encodedPayload}`).digest();
      const given = Buffer.from(encodedSignature, 'base64url');
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
      const payload = decodeJsonObject(encodedPayload);
      if (!payload) return null;
      const now = Math.floor(Date.now() / 1000);
      if (typeof payload.exp !== 'number' || payload.exp <= now) return null;
      if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > now)) return null;
      if (payload.iat !== undefined && typeof payload.iat !== 'number') return null;
      const userId = Number(payload.sub);
      if (typeof payload.sub !== 'string' || !Number.isInteger(userId) || userId <= 0) return null;
      return {
        userId,
        tokenVersion: typeof payload.ver === 'number' ? payload.ver : 0,
        ...(typeof payload.sid === 'string' ? { sessionId: payload.sid } : {}),
      };
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
