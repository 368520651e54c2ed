/**
 * Issue 15, sessions end when they should and not before: concurrent refreshes of one cookie (two
 * tabs, a network retry) continue the session; a password or e-mail change ends every other
 * session and keeps the current one; logout ends the access token it was called with; a reset
 * spends every outstanding reset code of the account.
 */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { sentWhileTableLocked } from '../../../test/held-requests.js';
import { eventually, startTestServer, testDbKind, type TestServer } from '../../../test/test-server.js';
import { REFRESH_GRACE_SECONDS } from './refresh-tokens.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
});
afterAll(() => server.close());

interface Session {
  token: string;
  cookie: string;
}

const cookieOf = (response: Response) => response.headers.get('set-cookie')?.split(';')[0] ?? '';

async function signIn(email: string, password = 'demo1234'): Promise<Session> {
  const response = await server.request('POST', '/api/auth/login', { body: { email, password } });
  expect(response.status).toBe(200);
  return { token: ((await response.json()) as { token: string }).token, cookie: cookieOf(response) };
}

/** A new seller of the scout group, signed in: one account per test, whose password may change. */
async function newSeller(): Promise<{ email: string; session: Session }> {
  const email = `session-${crypto.randomBytes(4).toString('hex')}@exempel.se`;
  const body = { full_name: 'Sara Session', email, password: 'demo1234', group_code: 'SCT482' };
  const response = await server.request('POST', '/api/auth/register-seller', { body });
  expect(response.status).toBe(200);
  return { email, session: { token: ((await response.json()) as { token: string }).token, cookie: cookieOf(response) } };
}

/** Whether the session still works: its access token on both authentication paths, and its refresh cookie. */
async function works(session: Session, options: { refresh?: boolean } = {}) {
  const statuses = [(await profile(session.token)).status, (await summary(session.token)).status];
  if (options.refresh !== false) statuses.push((await refresh(session.cookie)).status);
  return statuses;
}

const refresh = (cookie: string) => server.request('POST', '/api/auth/refresh', { headers: { cookie } });
const profile = (token: string) => server.request('GET', '/api/account/profile', { token });
/** Seller calls authenticate through their own query (decision 008); they must refuse alike. */
const summary = (token: string) => server.request('GET', '/api/me/summary', { token });

/** Moves the rotation of every rotated token of the cookie's user back by `seconds`. */
async function ageRotations(email: string, seconds: number) {
  await server.app.db.execute(sql`
    update refresh_tokens set rotated_at = rotated_at - make_interval(secs => ${seconds})
    where rotated_at is not null and user_id = (select id from users where email = ${email})`);
}

/** On PostgreSQL the refreshes are held behind a lock on refresh_tokens and let go together. */
async function simultaneously(count: number, send: () => Promise<Response>): Promise<Response[]> {
  if (testDbKind !== 'postgres') return Promise.all(Array.from({ length: count }, send));
  return Promise.all(await sentWhileTableLocked(server.app.db, 'refresh_tokens', count, send));
}

describe('two refreshes of one cookie', () => {
  it('both succeed when sent at the same moment, with the same successor, and the session goes on', async () => {
    const session = await signIn('elsa@demo.se');
    const answers = await simultaneously(6, () => refresh(session.cookie));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    const successors = new Set(answers.map(cookieOf));
    expect(successors.size).toBe(1);
    const [successor] = [...successors] as [string];
    expect(successor).not.toBe(session.cookie);
    for (const answer of answers) expect((await profile(((await answer.json()) as { token: string }).token)).status).toBe(200);

    const next = await refresh(successor);
    expect(next.status).toBe(200);
    expect((await refresh(cookieOf(next))).status).toBe(200);
  });

  it('a retry within the grace window gets the same successor; a reuse after it revokes the family', async () => {
    const session = await signIn('noah@demo.se');
    const first = await refresh(session.cookie);
    const retry = await refresh(session.cookie);
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(cookieOf(retry)).toBe(cookieOf(first));

    await ageRotations('noah@demo.se', REFRESH_GRACE_SECONDS + 1);
    expect((await refresh(session.cookie)).status).toBe(401);
    // Reuse revoked the family: the successor and the access tokens it gave no longer work either.
    const given = ((await first.json()) as { token: string }).token;
    expect(await works({ token: given, cookie: cookieOf(first) })).toEqual([401, 401, 401]);
  });
});

describe('a change of password or e-mail address', () => {
  const changes = {
    password: (token: string) =>
      server.request('POST', '/api/account/change-password', {
        token,
        body: { current_password: 'demo1234', new_password: 'nytt-losen-123' },
      }),
    'e-mail address': (token: string) =>
      server.request('POST', '/api/account/change-email', {
        token,
        body: { current_password: 'demo1234', new_email: `ny-${crypto.randomBytes(4).toString('hex')}@exempel.se` },
      }),
  };

  it.each(Object.keys(changes) as (keyof typeof changes)[])(
    'of the %s ends every other session at once and keeps the current one with a fresh token',
    async (kind) => {
      const { email, session: current } = await newSeller();
      const other = await signIn(email);
      const third = await signIn(email);
      expect(await works(other, { refresh: false })).toEqual([200, 200]);

      const changed = await changes[kind](current.token);
      expect(changed.status).toBe(200);
      const { token } = (await changed.json()) as { ok: true; token: string };

      // The other sessions: access tokens refused on both paths, refresh cookies revoked.
      expect(await works(other)).toEqual([401, 401, 401]);
      expect(await works(third)).toEqual([401, 401, 401]);
      // The current one: the old access token is of the old version; the new one and the cookie work.
      expect((await profile(current.token)).status).toBe(401);
      expect(await works({ token, cookie: current.cookie })).toEqual([200, 200, 200]);
    },
  );

  it('refused (wrong current password), ends nothing', async () => {
    const { email, session: current } = await newSeller();
    const other = await signIn(email);
    const refused = await server.request('POST', '/api/account/change-password', {
      token: current.token,
      body: { current_password: 'fel-lösenord', new_password: 'nytt-losen-123' },
    });
    expect(refused.status).toBe(400);
    expect(await works(current)).toEqual([200, 200, 200]);
    expect(await works(other)).toEqual([200, 200, 200]);
  });
});

describe('logout', () => {
  it('ends the access tokens of its session, not only the refresh cookie, and no other session', async () => {
    const { email, session } = await newSeller();
    const other = await signIn(email);
    // As the web does it: the refresh cookie only.
    const loggedOut = await server.request('POST', '/api/auth/logout', { headers: { cookie: session.cookie } });
    expect(loggedOut.status).toBe(200);
    expect(await works(session)).toEqual([401, 401, 401]);
    expect(await works(other)).toEqual([200, 200, 200]);
  });

  it('ends the session of the access token it was called with, even without the cookie', async () => {
    const { email, session } = await newSeller();
    const other = await signIn(email);
    expect((await server.request('POST', '/api/auth/logout', { token: session.token })).status).toBe(200);
    expect(await works(session)).toEqual([401, 401, 401]);
    expect(await works(other)).toEqual([200, 200, 200]);
  });

  it('forgets ended sessions once their access tokens have expired', async () => {
    const { email, session } = await newSeller();
    for (let round = 0; round < 3; round++) {
      const extra = await signIn(email);
      expect((await server.request('POST', '/api/auth/logout', { headers: { cookie: extra.cookie } })).status).toBe(200);
    }
    const listed = async () =>
      (
        await sqlRows<{ n: number }>(
          server.app.db,
          sql`select jsonb_array_length(ended_sessions)::int as n from users where email = ${email}`,
        )
      )[0]!.n;
    expect(await listed()).toBe(3);
    await server.app.db.execute(sql`
      update users set ended_sessions = (
        select jsonb_agg(jsonb_set(ended, '{until}', to_jsonb(now() - interval '1 second'))) from jsonb_array_elements(ended_sessions) ended)
      where email = ${email}`);
    expect((await server.request('POST', '/api/auth/logout', { headers: { cookie: session.cookie } })).status).toBe(200);
    expect(await listed()).toBe(1);
  });
});

describe('a reset', () => {
  it('spends every outstanding reset code of the account, not only the one used', async () => {
    const email = 'ledare@tallen.se';
    for (let request = 0; request < 3; request++) {
      expect((await server.request('POST', '/api/auth/forgot-password', { body: { email } })).status).toBe(200);
    }
    const mails = await eventually(() => {
      const found = server.mails().filter((mail) => mail.to === email);
      return found.length === 3 ? found : undefined;
    });
    const [first, second, third] = mails.map((mail) => new URL(mail.link!).searchParams.get('code')!) as [string, string, string];
    const reset = await server.request('POST', '/api/auth/reset-password', { body: { code: second, new_password: 'nytt-losen-123' } });
    expect(reset.status).toBe(200);
    for (const code of [first, third]) {
      expect((await server.request('POST', '/api/auth/reset-password/verify', { body: { code } })).status).toBe(400);
      const again = await server.request('POST', '/api/auth/reset-password', { body: { code, new_password: 'annat-losen-456' } });
      expect(again.status).toBe(400);
    }
    const unused = await sqlRows<{ n: number }>(
      server.app.db,
      sql`select count(*)::int as n from password_reset_codes c join users u on u.id = c.user_id where u.email = ${email} and c.used_at is null`,
    );
    expect(unused[0]!.n).toBe(0);
    expect(await server.login(email, 'nytt-losen-123')).toBeTruthy();
  });
});
