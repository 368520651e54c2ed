/** Which starts may have demo data (issue 15): the config decides once, at boot. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { AppError } from './errors.js';

/** What says an install is real, and how the refusal names it. */
const realInstalls: [string, Record<string, string>][] = [
  ['SUPERADMIN_EMAIL är satt', { SUPERADMIN_EMAIL: 'drift@skolan.se', SUPERADMIN_PASSWORD: 'ett långt lösenord' }],
  ['PUBLIC_URL är https', { PUBLIC_URL: 'https://portal.skolan.se' }],
  ['NODE_ENV=production', { NODE_ENV: 'production' }],
];

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    return error instanceof AppError ? { code: error.code, message: error.message } : error;
  }
  return 'startade';
};

describe('demo data in the config', () => {
  it('is on by default for the embedded database only, and SEED_DEMO=0 turns it off', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: '0' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/portal' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/portal', SEED_DEMO: '1' }).seedDemo).toBe(true);
  });

  it.each(realInstalls)('is off by default when %s (a real install), on either database', (_, env) => {
    expect(loadConfig(env).seedDemo).toBe(false);
    expect(loadConfig({ ...env, DATABASE_URL: 'postgres://127.0.0.1/portal' }).seedDemo).toBe(false);
    expect(loadConfig({ ...env, SEED_DEMO: '0' }).seedDemo).toBe(false);
  });

  it.each(realInstalls)('refuses an explicit SEED_DEMO=1 when %s, saying why in Swedish', (reason, env) => {
    for (const seed of ['1', 'true', 'on']) {
      const refused = refusal({ ...env, SEED_DEMO: seed }) as { code: string; message: string };
      expect(refused.code).toBe('CONFIG');
      expect(refused.message).toContain('SEED_DEMO=1 är inte tillåtet');
      expect(refused.message).toContain(reason);
    }
  });

  it('leaves HOST unset unless given, so the start can choose loopback for a demo', () => {
    expect(loadConfig({}).host).toBeUndefined();
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('changes an existing superadmin only with SUPERADMIN_RESET_PASSWORD', () => {
    const env = realInstalls[0]![1];
    expect(loadConfig(env).superadmin).toEqual({ email: 'drift@skolan.se', password: 'ett långt lösenord', resetPassword: false });
    expect(loadConfig({ ...env, SUPERADMIN_RESET_PASSWORD: '1' }).superadmin?.resetPassword).toBe(true);
  });

  it("refuses an erased account's address, as every address that enters does (decision 050)", () => {
    const env = realInstalls[0]![1];
    expect(() => loadConfig({ ...env, SUPERADMIN_EMAIL: 'borttagen-7@raderad.invalid' })).toThrow(
      /SUPERADMIN_EMAIL: Adresser som slutar på .invalid/,
    );
    expect(loadConfig({ ...env, SUPERADMIN_EMAIL: 'åsa@skolan.se' }).superadmin?.email).toBe('åsa@skolan.se');
  });
});

describe('METRICS_TOKEN in the config', () => {
  it('is unset unless given, and refused when too short to be a secret', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '0123456789abcdef' }).metricsToken).toBe('0123456789abcdef');
    expect(refusal({ METRICS_TOKEN: 'kort' })).toEqual({
      code: 'CONFIG',
      message: expect.stringContaining('METRICS_TOKEN: minst 16 tecken'),
    });
  });
});

describe('WEB_CONCURRENCY in the config (decision 026)', () => {
  const postgres = { DATABASE_URL: 'postgres://127.0.0.1/portal' };

  it('is one process unless given, and takes a whole number of workers on PostgreSQL', () => {
    expect(loadConfig(postgres).webConcurrency).toBe(1);
    expect(loadConfig({}).webConcurrency).toBe(1);
    expect(loadConfig({ ...postgres, WEB_CONCURRENCY: '4' }).webConcurrency).toBe(4);
    expect(loadConfig({ WEB_CONCURRENCY: '1' }).webConcurrency).toBe(1);
  });

  it.each(['0', '-2', '2.5', 'två', '65'])('refuses WEB_CONCURRENCY=%s in one Swedish line', (value) => {
    expect(refusal({ ...postgres, WEB_CONCURRENCY: value })).toEqual({
      code: 'CONFIG',
      message: 'Ogiltig konfiguration: WEB_CONCURRENCY: ange ett heltal från 1 till 64',
    });
  });

  it('refuses more than one worker on the embedded database, which one process owns', () => {
    const refused = refusal({ WEB_CONCURRENCY: '2' }) as { code: string; message: string };
    expect(refused.code).toBe('CONFIG');
    expect(refused.message).toContain('WEB_CONCURRENCY=2 kräver DATABASE_URL');
  });
});

describe('PUBLIC_URL’s scheme in the config (issue 28)', () => {
  it.each(['HTTPS://PORTAL.SKOLAN.SE', 'Https://Portal.Skolan.se/', 'https://portal.skolan.se'])(
    'reads %s as https, as a browser does: a real install, Secure cookies and HSTS',
    (value) => {
      const config = loadConfig({ PUBLIC_URL: value });
      expect(config).toMatchObject({ https: true, publicUrl: 'https://portal.skolan.se', seedDemo: false });
      expect((refusal({ PUBLIC_URL: value, SEED_DEMO: '1' }) as { message: string }).message).toContain('PUBLIC_URL är https');
    },
  );

  it('keeps a path, and reads http (any case) and the default as plain http', () => {
    expect(loadConfig({ PUBLIC_URL: 'HTTP://Skolan.se/Portal/' })).toMatchObject({ https: false, publicUrl: 'http://skolan.se/Portal' });
    expect(loadConfig({ PORT: '4000' })).toMatchObject({ https: false, publicUrl: 'http://localhost:4000', seedDemo: true });
  });

  it('refuses a scheme that is neither http nor https, in one Swedish line', () => {
    expect(refusal({ PUBLIC_URL: 'ftp://portal.skolan.se' })).toEqual({
      code: 'CONFIG',
      message: expect.stringMatching(/^Ogiltig konfiguration: PUBLIC_URL: ange portalens adress med http:\/\/ eller https:\/\//),
    });
  });
});

describe('TRUST_PROXY in the config (issue 28)', () => {
  it.each(['true', 'TRUE', ' True ', '1', 'yes', '*', '10.0.0.10, true'])(
    'refuses TRUST_PROXY=%s, which lets anyone choose their address, and says what to set instead',
    (value) => {
      const refused = refusal({ TRUST_PROXY: value }) as { code: string; message: string };
      expect(refused.code).toBe('CONFIG');
      expect(refused.message).toMatch(/^TRUST_PROXY=.* är inte tillåtet: då får vem som helst välja sin egen adress/);
      expect(refused.message).toContain('TRUST_PROXY=10.0.0.10');
      expect(refused.message).toContain('loopback');
      expect(refused.message).not.toContain('\n');
    },
  );

  it.each(['0.0.0.0/0', '::/0', '10.0.0.0/0.0.0.0'])('refuses %s, a range of every address', (value) => {
    expect((refusal({ TRUST_PROXY: value }) as { message: string }).message).toContain('omfattar alla adresser');
  });

  it.each(['proxy.skolan.se', '10.0.0.300', '10.0.0.0/33', 'loopback, 10.0.0.1/x'])('refuses %s, which names no address', (value) => {
    expect((refusal({ TRUST_PROXY: value }) as { message: string }).message).toMatch(/^Ogiltig konfiguration: TRUST_PROXY: .*loopback/);
  });

  it('takes loopback by default, addresses, ranges and named ranges, and false for none', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: '10.0.0.10, 10.0.1.0/24,fd00::/8, Uniquelocal' }).trustProxy).toBe(
      '10.0.0.10,10.0.1.0/24,fd00::/8,uniquelocal',
    );
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/255.0.0.0' }).trustProxy).toBe('10.0.0.0/255.0.0.0');
    for (const none of ['false', 'FALSE', '0', 'off']) expect(loadConfig({ TRUST_PROXY: none }).trustProxy).toBe(false);
  });
});

describe('what slow clients may hold (issue 28)', () => {
  it('has bounded defaults, and refuses a header limit longer than the request limit', () => {
    expect(loadConfig({}).connections).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      connectionTimeoutMs: 60_000,
      keepAliveTimeoutMs: 72_000,
      maxRequestsPerSocket: 1_000,
      maxConnections: 10_000,
    });
    expect(loadConfig({ MAX_CONNECTIONS: '500' }).connections.maxConnections).toBe(500);
    const refused = refusal({ HEADERS_TIMEOUT_MS: '40000' }) as { code: string; message: string };
    expect(refused.code).toBe('CONFIG');
    expect(refused.message).toContain('HEADERS_TIMEOUT_MS');
    expect(refusal({ MAX_CONNECTIONS: '0' })).toMatchObject({ code: 'CONFIG' });
  });
});
