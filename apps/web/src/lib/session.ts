import { notify } from './toast';

/**
 * The sign-in token in the browser (spec §3, §4): kept in localStorage under a key ending in
 * "token"; its middle part is base64url JSON with `exp` in seconds.
 */
export const TOKEN_STORAGE_KEY = 'saljportalen.token';

/** spec §4: a token counts as expired 30 seconds before its exp. */
export const EXPIRY_MARGIN_SECONDS = 30;

function decodeBase64Url(part: string): string {
  const base64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const binary = atob(base64);
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}

// The stored token is read on every render that asks whether someone is signed in: its claim is
// decoded once per token, not each time.
let decoded: { token: string; exp: number | undefined } | undefined;

/** The exp claim in seconds, or undefined when the token is not a JWT or has none. */
export function readTokenExp(token: string): number | undefined {
  if (decoded?.token === token) return decoded.exp;
  decoded = { token, exp: decodeExp(token) };
  return decoded.exp;
}

function decodeExp(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(decodeBase64Url(parts[1]!)) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp : undefined;
  } catch {
    return undefined;
  }
}

/** Expired means exp at or before now + 30 s; a token without a readable exp is not expired (spec §4). */
export function isTokenExpired(token: string, nowMs = Date.now()): boolean {
  const exp = readTokenExp(token);
  if (exp === undefined) return false;
  return exp <= nowMs / 1000 + EXPIRY_MARGIN_SECONDS;
}

/** Set when reading removed an expired token: a session ended here, as opposed to never having begun. */
let droppedExpiredToken = false;

/** The stored token; reading an expired one removes it and reports none. */
export function getToken(): string | null {
  const token = localStorage.getItem(TOKEN_STORAGE_KEY);
  if (!token) return null;
  if (isTokenExpired(token)) {
    localStorage.removeItem(TOKEN_STORAGE_KEY);
    droppedExpiredToken = true;
    return null;
  }
  return token;
}

/** spec §8's words for a session that ended (an expired token here, a 401/403 from any call). */
export function notifySessionEnded(): void {
  notify.error('Sessionen har gått ut', 'Logga in igen för att fortsätta.');
}

const SESSION_CHANGE_EVENT = 'saljportalen:session-change';
const announceChange = () => {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(SESSION_CHANGE_EVENT));
};

/**
 * Set by a sign-out of this tab's own, taken by the first check that then finds the token gone:
 * that check must not report a missing token over the sign-out's 'Utloggad' (issue 29's CI run).
 */
let signedOutHere = false;

export function setToken(token: string): void {
  droppedExpiredToken = false;
  signedOutHere = false;
  localStorage.setItem(TOKEN_STORAGE_KEY, token);
  announceChange();
}

/** Forgets the token; `signedOutHere` when the person signed out in this tab (see `takeSignedOutHere`). */
export function clearSession(options: { signedOutHere?: boolean } = {}): void {
  if (options.signedOutHere) signedOutHere = true;
  const had = localStorage.getItem(TOKEN_STORAGE_KEY) !== null;
  localStorage.removeItem(TOKEN_STORAGE_KEY);
  if (had) announceChange();
}

/** Whether the token is gone because the person signed out here; true once, so the next missing token is news again. */
export function takeSignedOutHere(): boolean {
  const was = signedOutHere;
  signedOutHere = false;
  return was;
}

/** Calls back when this tab signs in or out, or another tab changes the stored token. */
export function subscribeSession(callback: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    // key null: the other tab cleared all of its storage, the token with it.
    if (event.key === TOKEN_STORAGE_KEY || event.key === null) callback();
  };
  window.addEventListener(SESSION_CHANGE_EVENT, callback);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(SESSION_CHANGE_EVENT, callback);
    window.removeEventListener('storage', onStorage);
  };
}

export const isAuthenticated = (): boolean => getToken() !== null;

let refreshing: Promise<string | null> | undefined;

/**
 * Set when the last refresh got no answer about the session: no network (the installed app on a
 * phone offline), or the server could not look (a 5xx while its database is away, issue 17). The
 * session may well be alive, so it is not reported as ended.
 */
let serverUnreachable = false;
export const wasServerUnreachable = (): boolean => serverUnreachable;

/** A session was here (its access token had expired) and the server could not say whether it lives on. */
export const sessionMayBeAlive = (): boolean => serverUnreachable && droppedExpiredToken;

/**
 * spec §4 refresh helper: clears the stored token, then stores the access token of the server's
 * current session (the httpOnly refresh cookie) if there is one. Concurrent callers share one call.
 */
export function refreshSession(): Promise<string | null> {
  refreshing ??= (async () => {
    clearSession();
    try {
      let response: Response;
      try {
        response = await fetch('/api/auth/refresh', { method: 'POST', credentials: 'same-origin', cache: 'no-store' });
      } catch {
        serverUnreachable = true;
        return null;
      }
      serverUnreachable = response.status >= 500;
      if (!response.ok) return null;
      const { token } = (await response.json()) as { token?: unknown };
      if (typeof token !== 'string') return null;
      setToken(token);
      return token;
    } catch {
      return null;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

/**
 * A usable token: the stored one, or a fresh one from the refresh cookie. When the stored token
 * had expired and the cookie gives no new one, the session has ended: the visitor is told so (the
 * guards then send them to sign in).
 */
export async function getValidToken(): Promise<string | null> {
  const stored = getToken();
  if (stored) return stored;
  const token = await refreshSession();
  if (!token && droppedExpiredToken && !serverUnreachable) {
    droppedExpiredToken = false;
    notifySessionEnded();
  }
  return token;
}
