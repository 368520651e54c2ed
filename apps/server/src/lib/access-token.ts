import { createSigner, createVerifier } from 'fast-jwt';
import { LRUCache } from 'lru-cache';
import { ZIdParamSchema } from '@saljportalen/contract';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessTokenClaims {
  userId: number;
  tokenVersion: number;
  /** The session (refresh family) the token belongs to; tokens issued before sessions had ids have none. */
  sessionId?: string;
}

/**
 * Every session active within a token's 15 minutes on a national evening (60,000 sellers, their
 * guardians and teachers), at about 400 bytes each: some 40 MB at most. Fewer would not do: a
 * least-recently-used cache smaller than the callers in turn keeps none of them.
 */
const VERIFIED_TOKENS_KEPT = 100_000;

const BASE64URL_PARTS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * HS256 access tokens with fast-jwt (nearForm's, the one @fastify/jwt uses): signed and checked
 * synchronously, since every authenticated request checks one (decision 020). access-token.test.ts
 * checks the verifier against jose's `jwtVerify(…, { algorithms: ['HS256'] })`.
 */
export function createAccessTokens(secret: string) {
  const signer = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ACCESS_TOKEN_TTL_SECONDS * 1000 });
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
  // A phone sends the same token with every call for its 15 minutes, so what a token was verified to
  // say is kept until its exp: the check runs once per token, not once per call (under load it was
  // half of a seller call's cost, decision 049). Keyed by the whole token: an equal key is the very
  // same signed text. Only tokens that passed are kept; the token version and ended sessions are
  // still checked against the user on every call (plugins/auth.ts).
  // Its ages read the wall clock that exp is written in (Date), not the monotonic one, so that a kept
  // token and the check of a new one agree on when a token has expired.
  const verified = new LRUCache<string, AccessTokenClaims>({
    max: VERIFIED_TOKENS_KEPT,
    ttl: ACCESS_TOKEN_TTL_SECONDS * 1000,
    perf: { now: () => Date.now() },
  });
  return {
    async sign({ userId, tokenVersion, sessionId }: AccessTokenClaims): Promise<string> {
      return signer({ sub: String(userId), ver: tokenVersion, ...(sessionId ? { sid: sessionId } : {}) });
    },
    /** Null for anything that is not a valid, unexpired token of ours. */
    verify(token: string): AccessTokenClaims | null {
      const known = verified.get(token);
      if (known) return known;
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
      // An id as the contract reads one (plain decimal, within PostgreSQL's integer), so that no
      // token's subject can make the user's lookup fail rather than find no one (issue 28).
      const subject = ZIdParamSchema.safeParse(payload.sub);
      if (typeof payload.sub !== 'string' || !subject.success) return null;
      const userId = subject.data as number;
      const claims: AccessTokenClaims = Object.freeze({
        userId,
        tokenVersion: typeof payload.ver === 'number' ? payload.ver : 0,
        ...(typeof payload.sid === 'string' ? { sessionId: payload.sid } : {}),
      });
      // exp is a number: fast-jwt requires it. A ttl of 0 would mean 'never stale'.
      const ttl = Math.min((payload.exp as number) * 1000 - Date.now(), ACCESS_TOKEN_TTL_SECONDS * 1000);
      if (ttl > 0) verified.set(token, claims, { ttl });
      return claims;
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
