import { SignJWT, jwtVerify } from 'jose';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createAccessTokens } from './access-token.js';

const SECRET = 'test-secret-test-secret-test-secret-0123';
const tokens = createAccessTokens(SECRET);
const key = new TextEncoder().encode(SECRET);

/** A token signed with jose directly, for the shapes our own signer never makes. */
const signed = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }, secret = key) =>
  new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(secret);

const now = () => Math.floor(Date.now() / 1000);

/** What jose says about a token, with the claims our tokens always carry. */
async function joseAccepts(token: string): Promise<boolean> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
    return Number.isInteger(Number(payload.sub)) && Number(payload.sub) > 0;
  } catch {
    return false;
  }
}

describe('access tokens', () => {
  it('gives back the user and token version it was signed with', async () => {
    expect(tokens.verify(await tokens.sign({ userId: 42, tokenVersion: 3 }))).toEqual({ userId: 42, tokenVersion: 3 });
  });

  it('gives back the session it was signed for', async () => {
    const claims = { userId: 42, tokenVersion: 3, sessionId: '0b7e4c1e-5d7a-4f6b-9a57-2f5f0c6d8e11' };
    expect(tokens.verify(await tokens.sign(claims))).toEqual(claims);
  });

  it('refuses another key, another algorithm, none, crit, an expired or not yet valid token, a missing expiry and a subject no id is', async () => {
    const exp = now() + 600;
    const refused = [
      await signed({ sub: '1', exp }, { alg: 'HS256' }, new TextEncoder().encode('another-secret-another-secret-another!!')),
      await signed({ sub: '1', exp }, { alg: 'HS512' }),
      await signed({ sub: '1', exp }, { alg: 'HS256', crit: ['exp'] }).catch(() => 'x.y.z'),
      await signed({ sub: '1', exp: now() - 1 }),
      await signed({ sub: '1', exp: now() }),
      await signed({ sub: '1', exp, nbf: now() + 60 }),
      await signed({ sub: '1' }),
      await signed({ sub: 'admin', exp }),
      await signed({ sub: '0', exp }),
      // Subjects no user id is (issue 28): beyond PostgreSQL's integer, or another spelling of a number.
      await signed({ sub: '2147483648', exp }),
      await signed({ sub: '99999999999999999999', exp }),
      await signed({ sub: '1e3', exp }),
      await signed({ sub: '01', exp }),
      await signed({ sub: ' 1', exp }),
      await signed({ sub: 1, exp }),
      await signed({ sub: '1', exp: String(exp) }),
      await signed({ sub: '1', exp, iat: 'igår' }),
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(`{"sub":"1","exp":${exp}}`).toString('base64url')}.`,
      'inte.en.token',
      'ett.tva',
      '',
    ];
    for (const token of refused) expect(tokens.verify(token), token).toBeNull();
    expect(tokens.verify(await signed({ sub: '7', exp, nbf: now() - 1, iat: now() }))).toEqual({ userId: 7, tokenVersion: 0 });
  });

  it('keeps a verified token only until its expiry, and only for its own key', async () => {
    // The clock the check and its cache read (Date) is moved past exp, not waited for.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      const exp = now() + 1;
      const token = await signed({ sub: '9', exp });
      expect(tokens.verify(token)).toEqual({ userId: 9, tokenVersion: 0 });
      expect(tokens.verify(token)).toEqual({ userId: 9, tokenVersion: 0 });
      expect(createAccessTokens('another-secret-another-secret-another!!').verify(token)).toBeNull();
      vi.advanceTimersByTime(exp * 1000 - Date.now() + 20);
      expect(tokens.verify(token)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('never accepts what jose refuses, and agrees with it on every token of base64url parts', async () => {
    const token = await tokens.sign({ userId: 1234, tokenVersion: 1 });
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: token.length - 1 }),
        fc.constantFrom(...'ABCabc019_-.=+/! '.split('')),
        fc.boolean(),
        async (position, character, insert) => {
          const altered = token.slice(0, position) + character + token.slice(position + (insert ? 0 : 1));
          const ours = tokens.verify(altered) !== null;
          const jose = await joseAccepts(altered);
          // jose reads past characters outside base64url (a space in the signature); we refuse them.
          if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(altered)) expect(ours).toBe(jose);
          else if (ours) expect(jose).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
