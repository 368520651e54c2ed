/**
 * SUPERADMIN_EMAIL/SUPERADMIN_PASSWORD on every start (issue 18): the account is created when it
 * is missing, and an existing one is changed only with SUPERADMIN_RESET_PASSWORD=1, which then
 * signs it out everywhere. A password changed in the web survives a restart.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { hashPassword } from '../../lib/passwords.js';
import { ensureSuperadmin } from './ensure-superadmin.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const ENV_PASSWORD = 'Miljö-Lösen-1';
const WEB_PASSWORD = 'Webb-Lösen-22';

/** The status of a sign-in, and its access token and refresh cookie when it worked. */
async function signIn(email: string, password: string) {
  const response = await server.request('POST', '/api/auth/login', { body: { email, password } });
  if (response.status !== 200) return { status: response.status };
  const { token } = (await response.json()) as { token: string };
  return { status: 200, token, cookie: response.headers.get('set-cookie')!.split(';')[0]! };
}

const superadminFlag = async (email: string) =>
  (await sqlRows<{ is_superadmin: boolean }>(server.app.db, sql`select is_superadmin from users where lower(email) = ${email}`))[0]
    ?.is_superadmin;

describe('ensureSuperadmin', () => {
  const email = 'drift@skolan.se';

  it('creates the superadmin when the account is missing', async () => {
    expect(await ensureSuperadmin(server.app.db, { email: 'Drift@Skolan.se', password: ENV_PASSWORD })).toBe('created');
    expect(await superadminFlag(email)).toBe(true);
    expect((await signIn(email, ENV_PASSWORD)).status).toBe(200);
  });

  it('leaves an existing superadmin alone on the next start: a password changed in the web still works, and its sessions too', async () => {
    const { token } = await signIn(email, ENV_PASSWORD);
    const changed = await server.request('POST', '/api/account/change-password', {
      token,
      body: { current_password: ENV_PASSWORD, new_password: WEB_PASSWORD },
    });
    expect(changed.status).toBe(200);
    const session = await signIn(email, WEB_PASSWORD);
    expect(session.status).toBe(200);

    for (const start of ['second', 'third']) {
      expect({ start, outcome: await ensureSuperadmin(server.app.db, { email, password: ENV_PASSWORD }) }).toEqual({
        start,
        outcome: 'unchanged',
      });
      expect({ start, web: (await signIn(email, WEB_PASSWORD)).status, env: (await signIn(email, ENV_PASSWORD)).status }).toEqual({
        start,
        web: 200,
        env: 401,
      });
      expect((await server.request('GET', '/api/admin/overview', { token: session.token })).status).toBe(200);
    }
  });

  it('with resetPassword gives the environment’s password and signs the account out everywhere', async () => {
    const session = await signIn(email, WEB_PASSWORD);
    expect(session.status).toBe(200);

    expect(await ensureSuperadmin(server.app.db, { email, password: ENV_PASSWORD, resetPassword: true })).toBe('reset');

    expect((await signIn(email, ENV_PASSWORD)).status).toBe(200);
    expect((await signIn(email, WEB_PASSWORD)).status).toBe(401);
    // The access token issued before is refused (token version), and so is the refresh cookie.
    expect((await server.request('GET', '/api/admin/overview', { token: session.token })).status).toBe(401);
    expect((await server.request('POST', '/api/auth/refresh', { headers: { cookie: session.cookie! } })).status).toBe(401);
  });

  it('does not make an existing account superadmin, nor change its password, unless told to', async () => {
    const teacher = 'larare@skolan.se';
    await server.app.db.execute(
      sql`insert into users (email, password_hash, full_name) values (${teacher}, ${await hashPassword(WEB_PASSWORD)}, 'Karin Lärare')`,
    );

    expect(await ensureSuperadmin(server.app.db, { email: teacher, password: ENV_PASSWORD })).toBe('not-superadmin');
    expect(await superadminFlag(teacher)).toBe(false);
    expect((await signIn(teacher, WEB_PASSWORD)).status).toBe(200);

    expect(await ensureSuperadmin(server.app.db, { email: teacher, password: ENV_PASSWORD, resetPassword: true })).toBe('reset');
    expect(await superadminFlag(teacher)).toBe(true);
    expect((await signIn(teacher, ENV_PASSWORD)).status).toBe(200);
  });
});
