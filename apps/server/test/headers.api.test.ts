/**
 * Issue 8, headers and cookies: a strict Content-Security-Policy on every answer (no inline
 * script; inline styles by decision 004), frame-ancestors 'none', nosniff, a referrer policy,
 * HSTS only over https; the refresh cookie httpOnly, SameSite=Strict and Secure over https;
 * CORS closed unless CORS_ORIGIN names an origin.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startTestServer, type TestServer } from './test-server.js';

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-web-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><html lang="sv"><script type="module" src="/assets/app.js"></script></html>',
);
fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log("hej")');

const ALLOWED_ORIGIN = 'https://app.skolan.se';

let plain: TestServer;
/** Served over https, its PUBLIC_URL's scheme in capitals: a browser reads it as https, and so must the server (issue 28). */
let https: TestServer;
beforeAll(async () => {
  [plain, https] = await Promise.all([
    startTestServer({ seed: true, env: { WEB_DIST: webDist } }),
    startTestServer({
      seed: true,
      env: { PUBLIC_URL: 'HTTPS://Portal.Skolan.se', CORS_ORIGIN: `${ALLOWED_ORIGIN}, https://annan.skolan.se` },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain.close(), https.close()]);
  fs.rmSync(webDist, { recursive: true, force: true });
});

/** The policy as directive → sources. */
function csp(response: Response): Map<string, string[]> {
  const header = response.headers.get('content-security-policy');
  expect(header, 'Content-Security-Policy saknas').toBeTruthy();
  return new Map(
    header!
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('security headers', () => {
  const answers = (server: TestServer) => ({
    'JSON från API:t': () => server.request('GET', '/api/health'),
    'ett fel (401)': () => server.request('GET', '/api/account/profile'),
    'en okänd API-adress (404)': () => server.request('GET', '/api/finns-inte'),
    'ett ogiltigt anrop (400)': () =>
      server.request('POST', '/api/auth/login', { body: '{"email":', headers: { 'content-type': 'application/json' } }),
  });

  it('puts a strict policy, nosniff, a referrer policy and no framing on every kind of answer', async () => {
    const kinds = {
      ...answers(plain),
      'webbappens sida': () => plain.request('GET', '/dashboard'),
      'en statisk fil': () => plain.request('GET', '/assets/app.js'),
    };
    for (const [kind, send] of Object.entries(kinds)) {
      const response = await send();
      const policy = csp(response);
      expect(policy.get('script-src'), kind).toEqual(["'self'"]);
      expect(policy.get('default-src'), kind).toEqual(["'self'"]);
      for (const sources of policy.values()) {
        expect(sources, kind).not.toContain("'unsafe-eval'");
      }
      expect(policy.get('style-src'), kind).toEqual(["'self'", "'unsafe-inline'"]);
      expect(policy.get('frame-ancestors'), kind).toEqual(["'none'"]);
      expect(policy.get('object-src'), kind).toEqual(["'none'"]);
      expect(policy.get('base-uri'), kind).toEqual(["'self'"]);
      expect(policy.get('form-action'), kind).toEqual(["'self'"]);
      expect(policy.has('upgrade-insecure-requests'), kind).toBe(false);
      expect(response.headers.get('x-content-type-options'), kind).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), kind).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('x-frame-options'), kind).toBe('DENY');
      expect(response.headers.get('strict-transport-security'), kind).toBeNull();
    }
  });

  it('lets no API answer be cached, errors included, while the web app keeps its own caching (issue 15)', async () => {
    for (const [kind, send] of Object.entries(answers(plain))) {
      expect((await send()).headers.get('cache-control'), kind).toBe('no-store');
    }
    expect((await plain.request('GET', '/assets/app.js')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await plain.request('GET', '/dashboard')).headers.get('cache-control')).toBe('no-cache');
  });

  it('adds HSTS and upgrades insecure requests when the portal is served over https, however PUBLIC_URL spells the scheme', async () => {
    for (const [kind, send] of Object.entries(answers(https))) {
      const response = await send();
      expect(response.headers.get('strict-transport-security'), kind).toBe('max-age=31536000; includeSubDomains');
      expect(csp(response).has('upgrade-insecure-requests'), kind).toBe(true);
      expect(csp(response).get('script-src'), kind).toEqual(["'self'"]);
    }
  });
});

describe('the refresh cookie', () => {
  const cookieOf = (response: Response) => {
    const header = response.headers.get('set-cookie');
    expect(header).toMatch(/^sp_refresh=/);
    return header!.split(';').map((part) => part.trim().toLowerCase());
  };

  async function signInAndRefresh(server: TestServer) {
    const login = await server.request('POST', '/api/auth/login', { body: { email: 'noah@demo.se', password: 'demo1234' } });
    expect(login.status).toBe(200);
    const refresh = await server.request('POST', '/api/auth/refresh', {
      headers: { cookie: login.headers.get('set-cookie')!.split(';')[0]! },
    });
    expect(refresh.status).toBe(200);
    return [cookieOf(login), cookieOf(refresh)];
  }

  it('is httpOnly, SameSite=Strict and sent only to /api/auth, and not Secure over plain http', async () => {
    for (const attributes of await signInAndRefresh(plain)) {
      expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/api/auth']));
      expect(attributes).not.toContain('secure');
    }
  });

  it('is also Secure over https, however PUBLIC_URL spells the scheme', async () => {
    for (const attributes of await signInAndRefresh(https)) {
      expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/api/auth', 'secure']));
    }
  });
});

describe('CORS', () => {
  const preflight = (server: TestServer, origin: string) =>
    server.request('OPTIONS', '/api/auth/login', {
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });

  it('lets no other origin read an answer when CORS_ORIGIN is not set', async () => {
    for (const origin of [ALLOWED_ORIGIN, 'https://elak.example']) {
      expect((await preflight(plain, origin)).headers.get('access-control-allow-origin')).toBeNull();
      const read = await plain.request('GET', '/api/health', { headers: { origin } });
      expect(read.status).toBe(200);
      expect(read.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('answers the configured origins only', async () => {
    const allowed = await preflight(https, ALLOWED_ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
    const read = await https.request('GET', '/api/health', { headers: { origin: ALLOWED_ORIGIN } });
    expect(read.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);

    for (const origin of ['https://elak.example', 'https://app.skolan.se.elak.example', 'http://app.skolan.se']) {
      expect((await preflight(https, origin)).headers.get('access-control-allow-origin'), origin).toBeNull();
      const other = await https.request('GET', '/api/health', { headers: { origin } });
      expect(other.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('refuses at start a CORS_ORIGIN that is not a list of origins', () => {
    for (const value of ['https://app.skolan.se/sida', '*', 'app.skolan.se']) {
      expect(() => loadConfig({ CORS_ORIGIN: value }), value).toThrow(/Ogiltig konfiguration: CORS_ORIGIN/);
    }
  });
});
