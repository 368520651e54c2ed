import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { membershipOf, sqlRows } from '../../../test/admin-fixtures.js';
import { sentWhileTableLocked } from '../../../test/held-requests.js';
import { RESET_CODE_TTL_MINUTES } from './password-reset.js';
import { REFRESH_GRACE_SECONDS } from './refresh-tokens.js';
import { startTestServer, eventually, testDbKind, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
});
afterAll(() => server.close());

const decodeClaims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

describe('sign-in', () => {
  it('gives a token whose middle part holds exp', async () => {
    const token = await server.login('elsa@demo.se');
    const claims = decodeClaims(token);
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('answers a wrong password and an unknown address alike', async () => {
    const wrong = await server.request('POST', '/api/auth/login', { body: { email: 'elsa@demo.se', password: 'fel-lösenord' } });
    const unknown = await server.request('POST', '/api/auth/login', { body: { email: 'ingen@demo.se', password: 'fel-lösenord' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('refuses malformed JSON, a wrong type, a huge body and SQL-looking input with a Swedish 4xx', async () => {
    const cases = [
      await server.request('POST', '/api/auth/login', { body: '{"email":', headers: { 'content-type': 'application/json' } }),
      await server.request('POST', '/api/auth/login', { body: { email: 42, password: null } }),
      await server.request('POST', '/api/auth/login', {
        body: JSON.stringify({ email: 'a@b.se', password: 'x'.repeat(10 * 1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
      }),
      await server.request('POST', '/api/auth/login', { body: { email: "' OR 1=1 --@x.se", password: "'; drop table users; --" } }),
    ];
    for (const response of cases) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.message).toMatch(/[a-zåäö]/i);
    }
    expect(cases.map((r) => r.status)).toEqual([400, 400, 413, 400]);
    expect(await server.login('elsa@demo.se')).toBeTruthy();
  });

  it('401 without a token and with a forged one', async () => {
    expect((await server.request('GET', '/api/account/profile')).status).toBe(401);
    expect((await server.request('GET', '/api/account/profile', { token: 'a.b.c' })).status).toBe(401);
  });
});

describe('seller registration', () => {
  it('refuses an unknown and an archived group code in Swedish', async () => {
    const unknown = await server.request('POST', '/api/auth/register-seller', {
      body: { full_name: 'Test Testsson', email: 'ny1@demo.se', password: 'hemligt123', group_code: 'FINNSEJ' },
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain('Okänd gruppkod');
    const archived = await server.request('POST', '/api/auth/register-seller', {
      body: { full_name: 'Test Testsson', email: 'ny1@demo.se', password: 'hemligt123', group_code: 'EK9A34' },
    });
    expect(archived.status).toBe(400);
    expect(((await archived.json()) as { error: { message: string } }).error.message).toContain('arkiverad');
  });

  it('registers with a valid code (any case) and signs in again', async () => {
    const response = await server.request('POST', '/api/auth/register-seller', {
      body: { full_name: 'Greta Grön', email: 'Greta@Demo.se', password: 'hemligt123', group_code: ' bjk6b2 ' },
    });
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    expect(decodeClaims(token).exp).toBeTypeOf('number');
    const groups = await server.request('GET', '/api/account/groups', { token });
    expect(((await groups.json()) as { groups: { group_code: string; is_active: boolean }[] }).groups).toEqual([
      expect.objectContaining({ group_code: 'BJK6B2', is_active: true }),
    ]);
    expect(await server.login('greta@demo.se', 'hemligt123')).toBeTruthy();
  });

  it('keeps a group admin who registers with the code of their own group an admin', async () => {
    const before = await membershipOf(server.app.db, 'tranare@savedalen.se', 'SFKP24');
    const response = await server.request('POST', '/api/auth/register-seller', {
      body: { full_name: 'Johan Tränare', email: 'tranare@savedalen.se', password: 'demo1234', group_code: 'SFKP24' },
    });
    expect(response.status).toBe(200);
    const rows = await sqlRows<{ id: number; role: string }>(
      server.app.db,
      sql`select m.id, m.role from memberships m join users u on u.id = m.user_id where u.email = 'tranare@savedalen.se'`,
    );
    expect(rows.map((row) => ({ id: Number(row.id), role: row.role }))).toEqual([{ id: before.id, role: 'admin' }]);
  });

  it('gives an account that registers into a new group several times at once one membership, and every request its token', async () => {
    const register = () =>
      server.request('POST', '/api/auth/register-seller', {
        body: { full_name: 'Mona Ledare', email: 'ledare@tallen.se', password: 'demo1234', group_code: 'BJK6B2' },
      });
    const responses = await Promise.all(
      testDbKind === 'postgres'
        ? await sentWhileTableLocked(server.app.db, 'memberships', 8, register)
        : Array.from({ length: 8 }, register),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    const rows = await sqlRows<{ code: string; role: string }>(
      server.app.db,
      sql`select g.code, m.role from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
          where u.email = 'ledare@tallen.se' order by g.code`,
    );
    expect(rows).toEqual([
      { code: 'BJK6B2', role: 'seller' },
      { code: 'SCT482', role: 'admin' },
    ]);
  });

  it('refuses a taken address unless its password is given', async () => {
    const taken = await server.request('POST', '/api/auth/register-seller', {
      body: { full_name: 'Elsa', email: 'elsa@demo.se', password: 'annat-losen', group_code: 'SCT482' },
    });
    expect(taken.status).toBe(409);
  });
});

describe('refresh and logout', () => {
  it('rotates the refresh cookie and refuses a reused one', async () => {
    const login = await server.request('POST', '/api/auth/login', { body: { email: 'noah@demo.se', password: 'demo1234' } });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    expect(login.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(login.headers.get('set-cookie')).toMatch(/SameSite=Strict/i);
    const first = await server.request('POST', '/api/auth/refresh', { headers: { cookie } });
    expect(first.status).toBe(200);
    // Past the grace window for two tabs refreshing at once (sessions.api.test.ts).
    await server.app.db.execute(sql`
      update refresh_tokens set rotated_at = rotated_at - make_interval(secs => ${REFRESH_GRACE_SECONDS + 1})
      where rotated_at is not null and user_id = (select id from users where email = 'noah@demo.se')`);
    const reused = await server.request('POST', '/api/auth/refresh', { headers: { cookie } });
    expect(reused.status).toBe(401);
    // Reuse revoked the family: the rotated cookie no longer works either.
    const rotated = first.headers.get('set-cookie')!.split(';')[0]!;
    expect((await server.request('POST', '/api/auth/refresh', { headers: { cookie: rotated } })).status).toBe(401);
  });
});

describe('password reset', () => {
  it('refuses a code older than its lifetime, in verify and in reset alike', async () => {
    expect((await server.request('POST', '/api/auth/forgot-password', { body: { email: 'ledare@tallen.se' } })).status).toBe(200);
    const mail = await eventually(() => server.mails().find((m) => m.to === 'ledare@tallen.se'));
    const code = new URL(mail.link!).searchParams.get('code')!;
    // Made a minute longer ago than a code lives.
    await server.app.db.execute(sql`
      update password_reset_codes
      set created_at = created_at - make_interval(mins => ${RESET_CODE_TTL_MINUTES + 1}),
          expires_at = expires_at - make_interval(mins => ${RESET_CODE_TTL_MINUTES + 1})
      where user_id = (select id from users where email = 'ledare@tallen.se')`);

    const invalidLink = { error: { code: 'VALIDATION', message: 'Ogiltig återställningslänk' } };
    const verify = await server.request('POST', '/api/auth/reset-password/verify', { body: { code } });
    expect({ status: verify.status, body: await verify.json() }).toEqual({ status: 400, body: invalidLink });
    const reset = await server.request('POST', '/api/auth/reset-password', { body: { code, new_password: 'nytt-losen-123' } });
    expect({ status: reset.status, body: await reset.json() }).toEqual({ status: 400, body: invalidLink });
    expect(await server.login('ledare@tallen.se')).toBeTruthy();
  });

  it('answers the same for known and unknown addresses, mails a single-use link, signs out everywhere', async () => {
    const oldToken = await server.login('larare@bjorkskolan.se');
    const known = await server.request('POST', '/api/auth/forgot-password', { body: { email: 'larare@bjorkskolan.se' } });
    const unknown = await server.request('POST', '/api/auth/forgot-password', { body: { email: 'ingen@example.se' } });
    expect(known.status).toBe(200);
    expect(await known.json()).toEqual(await unknown.json());

    const mail = await eventually(() => server.mails().find((m) => m.to === 'larare@bjorkskolan.se'));
    expect(mail.subject).toContain('lösenord');
    const code = new URL(mail.link!).searchParams.get('code')!;
    expect(new URL(mail.link!).pathname).toBe('/auth/reset-password');

    expect((await server.request('POST', '/api/auth/reset-password/verify', { body: { code } })).status).toBe(200);
    expect((await server.request('POST', '/api/auth/reset-password', { body: { code, new_password: 'kort' } })).status).toBe(400);
    expect((await server.request('POST', '/api/auth/reset-password', { body: { code, new_password: 'nytt-losen-123' } })).status).toBe(200);
    expect((await server.request('POST', '/api/auth/reset-password', { body: { code, new_password: 'nytt-losen-456' } })).status).toBe(400);
    expect((await server.request('POST', '/api/auth/reset-password/verify', { body: { code } })).status).toBe(400);

    expect((await server.request('GET', '/api/account/profile', { token: oldToken })).status).toBe(401);
    expect(await server.login('larare@bjorkskolan.se', 'nytt-losen-123')).toBeTruthy();
  });
});
