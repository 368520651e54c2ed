import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installMemoryStorage } from './memory-storage.test-support';
import {
  EXPIRY_MARGIN_SECONDS,
  TOKEN_STORAGE_KEY,
  clearSession,
  getToken,
  getValidToken,
  isAuthenticated,
  isTokenExpired,
  readTokenExp,
  setToken,
  takeSignedOutHere,
  wasServerUnreachable,
} from './session';
import { notify } from './toast';

vi.mock('./toast', () => ({ notify: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

const store = installMemoryStorage();

const tokenWith = (payload: object) => `h.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.s`;
const now = Date.now();

describe('session token (spec §4)', () => {
  beforeEach(() => store.clear());

  it('keeps the token under a key ending in "token"', () => {
    expect(TOKEN_STORAGE_KEY.endsWith('token')).toBe(true);
  });

  it('reads exp from the base64url middle part, also with non-ASCII claims', () => {
    expect(readTokenExp(tokenWith({ exp: 1234, name: 'Åsa Öberg' }))).toBe(1234);
  });

  it('counts a token as expired from 30 seconds before exp', () => {
    const nowSeconds = Math.floor(now / 1000);
    expect(isTokenExpired(tokenWith({ exp: nowSeconds + EXPIRY_MARGIN_SECONDS }), now)).toBe(true);
    expect(isTokenExpired(tokenWith({ exp: nowSeconds + EXPIRY_MARGIN_SECONDS + 2 }), now)).toBe(false);
  });

  it('counts a token that is not three parts, or has no exp, as not expired', () => {
    expect(isTokenExpired('not-a-jwt', now)).toBe(false);
    expect(isTokenExpired(tokenWith({ sub: '1' }), now)).toBe(false);
    expect(isTokenExpired('a.b', now)).toBe(false);
  });

  it('removes an expired token when reading it', () => {
    setToken(tokenWith({ exp: Math.floor(now / 1000) - 10 }));
    expect(getToken()).toBeNull();
    expect(store.has(TOKEN_STORAGE_KEY)).toBe(false);
    expect(isAuthenticated()).toBe(false);
  });

  it('is authenticated with a valid token until the session is cleared', () => {
    setToken(tokenWith({ exp: Math.floor(now / 1000) + 3600 }));
    expect(isAuthenticated()).toBe(true);
    clearSession();
    expect(isAuthenticated()).toBe(false);
  });
});

describe('a sign-out of this tab', () => {
  it('is told once to the first check that finds the token gone, and forgotten at the next sign-in', () => {
    setToken(tokenWith({ exp: Math.floor(now / 1000) + 3600 }));
    clearSession({ signedOutHere: true });
    expect(takeSignedOutHere()).toBe(true);
    expect(takeSignedOutHere()).toBe(false);

    clearSession({ signedOutHere: true });
    setToken(tokenWith({ exp: Math.floor(now / 1000) + 3600 }));
    clearSession();
    expect(takeSignedOutHere()).toBe(false);
  });
});

describe('getValidToken (spec §4 refresh helper, §8 session ended)', () => {
  const fresh = tokenWith({ exp: Math.floor(now / 1000) + 900 });
  const expired = tokenWith({ exp: Math.floor(now / 1000) - 60 });
  const refreshAnswers = (answer: Response) => {
    const refresh = vi.fn(async () => answer.clone());
    globalThis.fetch = refresh as unknown as typeof fetch;
    return refresh;
  };

  beforeEach(() => {
    store.clear();
    vi.mocked(notify.error).mockClear();
  });

  it('gives the stored token without asking the server', async () => {
    const refresh = refreshAnswers(new Response('', { status: 500 }));
    setToken(fresh);
    expect(await getValidToken()).toBe(fresh);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('renews an expired token from the refresh cookie, quietly', async () => {
    refreshAnswers(Response.json({ token: fresh }));
    setToken(expired);
    expect(await getValidToken()).toBe(fresh);
    expect(store.get(TOKEN_STORAGE_KEY)).toBe(fresh);
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('says the session has ended, once, when an expired token cannot be renewed', async () => {
    refreshAnswers(new Response('', { status: 401 }));
    setToken(expired);
    expect(await Promise.all([getValidToken(), getValidToken()])).toEqual([null, null]);
    expect(store.has(TOKEN_STORAGE_KEY)).toBe(false);
    expect(notify.error).toHaveBeenCalledTimes(1);
    expect(notify.error).toHaveBeenCalledWith('Sessionen har gått ut', 'Logga in igen för att fortsätta.');
    expect(await getValidToken()).toBeNull();
    expect(notify.error).toHaveBeenCalledTimes(1);
  });

  it('without network, does not call the session ended: the server was never asked (issue 19)', async () => {
    globalThis.fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    setToken(expired);
    expect(await getValidToken()).toBeNull();
    expect(wasServerUnreachable()).toBe(true);
    expect(notify.error).not.toHaveBeenCalled();
    // Back online, the server's own answer counts again.
    refreshAnswers(new Response('', { status: 401 }));
    expect(await getValidToken()).toBeNull();
    expect(wasServerUnreachable()).toBe(false);
  });

  it('on a server error, does not call the session ended either: the server could not look (issue 17)', async () => {
    refreshAnswers(Response.json({ error: { code: 'UNAVAILABLE', message: 'Databasen svarar inte just nu.' } }, { status: 503 }));
    setToken(expired);
    expect(await getValidToken()).toBeNull();
    expect(wasServerUnreachable()).toBe(true);
    expect(notify.error).not.toHaveBeenCalled();
    // Once the server can look again, its answer counts: this session had ended.
    refreshAnswers(new Response('', { status: 401 }));
    expect(await getValidToken()).toBeNull();
    expect(wasServerUnreachable()).toBe(false);
    expect(notify.error).toHaveBeenCalledWith('Sessionen har gått ut', 'Logga in igen för att fortsätta.');
  });

  it('says nothing to a visitor who was never signed in', async () => {
    refreshAnswers(new Response('', { status: 401 }));
    expect(await getValidToken()).toBeNull();
    expect(notify.error).not.toHaveBeenCalled();
  });
});
