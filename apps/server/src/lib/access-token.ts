import { createSigner, createVerifier } from 'fast-jwt';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessTokenClaims {
  userId: number;
  tokenVersion: number;
  /** The session (refresh family) the token belongs to; tokens issued before sessions had ids have none. */
  sessionId?: string;
}

const BASE64URL_PARTS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * HS256 access tokens with fast-jwt (nearForm's, the one @fastify/jwt uses): signed and checked
 * synchronously, since every authenticated request checks one (decision 020). access-token.test.ts
 * checks the verifier against jose's `jwtVerify(…, { algorithms: ['HS256'] })`.
 */
export function createAccessTokens(secret: string) {
  const signer = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ACCESS_TOKEN_TTL_SECONDS * 1000 });
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
  return {
    async sign({ userId, tokenVersion, sessionId }: AccessTokenClaims): Promise<string> {
      return signer({ sub: String(userId), ver: tokenVersion, ...(sessionId ? { sid: sessionId } : {}) });
    },
    /** Null for anything that is not a valid, unexpired token of ours. */
    async verify(token: string): Promise<AccessTokenClaims | null> {
      // fast-jwt's base64 decoding passes over characters outside base64url; a token of ours has none.
      if (!BASE64URL_PARTS.test(token)) return null;
      let payload: Record<string, unknown>;
      try {
        payload = verifier(token) as Record<string, unknown>;
      } catch {
        return null;
      }
      // fast-jwt checks iat and nbf only when they are numbers; jose refuses a token where they are not.
      if (['iat', 'nbf'].some((claim) => payload[claim] !== undefined && typeof payload[claim] !== 'number')) return null;
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
