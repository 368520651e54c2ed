import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessTokenClaims {
  userId: number;
  tokenVersion: number;
}

export function createAccessTokens(secret: string) {
  const key = new TextEncoder().encode(secret);
  return {
    async sign({ userId, tokenVersion }: AccessTokenClaims): Promise<string> {
      return new SignJWT({ ver: tokenVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(userId))
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
        .sign(key);
    },
    /** Null for anything that is not a valid, unexpired token of ours. */
    async verify(token: string): Promise<AccessTokenClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        if (!Number.isInteger(userId) || userId <= 0) return null;
        return { userId, tokenVersion: typeof payload.ver === 'number' ? payload.ver : 0 };
      } catch {
        return null;
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
