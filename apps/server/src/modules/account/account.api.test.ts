import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAccountGroupsResponse, TProfileResponse } from '@saljportalen/contract';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sellerEmailsOf, sqlRows } from '../../../test/admin-fixtures.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
});
afterAll(() => server.close());

async function rows<T>(query: SQL): Promise<T[]> {
  return sqlRows<T>(server.app.db, query);
}

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

/** A seeded seller of the scout group nobody else in this file touches, one per test. */
async function scoutSeller(index: number) {
  return (await sellerEmailsOf(server.app.db, 'SCT482'))[index]!;
}

describe('without a session', () => {
  it('answers 401 on every account call', async () => {
    for (const [method, path] of [
      ['GET', '/api/account/profile'],
      ['POST', '/api/account/profile'],
      ['POST', '/api/account/change-password'],
      ['POST', '/api/account/change-email'],
      ['GET', '/api/account/groups'],
      ['POST', '/api/account/switch-group'],
    ] as const) {
      const response = await server.request(method, path, method === 'POST' ? { body: {} } : {});
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('profile', () => {
  it('loads the user as stored, with the active group as hint and the mail opt-ins', async () => {
    const token = await server.login('larare@bjorkskolan.se');
    const [user] = await rows<{ id: number; full_name: string; email: string; phone: string | null; active_group_id: number }>(sql`
      select id, full_name, email, phone, active_group_id from users where email = 'larare@bjorkskolan.se'`);
    const response = await server.request('GET', '/api/account/profile', { token });
    expect(response.status).toBe(200);
    expect((await response.json()) as TProfileResponse).toEqual({
      user: { id: user!.id, full_name: user!.full_name, email: user!.email, username: null, phone: user!.phone },
      group_hint: { id: user!.active_group_id },
      account: { sells: true, is_guardian: false },
      // Issue 20: both opt-ins off by default; the weekly summary is offered, as she runs a group.
      notifications: { sale_mail: false, weekly_summary: false, weekly_summary_offered: true },
    });
  });

  it('saves a trimmed name and phone, and an empty phone as none (spec §5)', async () => {
    const token = await server.login('noah@demo.se');
    const save = (body: unknown) => server.request('POST', '/api/account/profile', { token, body });

    expect((await save({ full_name: '  Noah Nilsson ', phone: ' 070-111 22 33 ' })).status).toBe(200);
    const [saved] = await rows<{ full_name: string; phone: string | null }>(
      sql`select full_name, phone from users where email = 'noah@demo.se'`,
    );
    expect(saved).toEqual({ full_name: 'Noah Nilsson', phone: '070-111 22 33' });
    const loaded = (await (await server.request('GET', '/api/account/profile', { token })).json()) as TProfileResponse;
    expect(loaded.user).toMatchObject({ full_name: 'Noah Nilsson', phone: '070-111 22 33' });

    expect((await save({ full_name: 'Noah Nilsson', phone: '   ' })).status).toBe(200);
    const [cleared] = await rows<{ phone: string | null }>(sql`select phone from users where email = 'noah@demo.se'`);
    expect(cleared!.phone).toBeNull();
  });

  it('refuses an empty name in Swedish', async () => {
    const token = await server.login('noah@demo.se');
    const response = await server.request('POST', '/api/account/profile', { token, body: { full_name: '   ' } });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe('Namn krävs');
  });
});

describe('change password', () => {
  it('refuses a wrong current password without signing the user out, and a too short new one', async () => {
    const email = await scoutSeller(0);
    const token = await server.login(email);

    const wrong = await server.request('POST', '/api/account/change-password', {
      token,
      body: { current_password: 'fel-lösenord', new_password: 'nytt-losen-123' },
    });
    // 400, not 401: the web clears the session on 401/403 (spec §4), and a typo must not sign anyone out.
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).message).toBe('Nuvarande lösenord är fel');

    const short = await server.request('POST', '/api/account/change-password', {
      token,
      body: { current_password: 'demo1234', new_password: 'kort' },
    });
    expect(short.status).toBe(400);
    expect((await errorOf(short)).message).toBe('Lösenordet måste vara minst 8 tecken');

    const missing = await server.request('POST', '/api/account/change-password', { token, body: { new_password: 'nytt-losen-123' } });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toBe('Nuvarande lösenord krävs');

    expect(await server.login(email, 'demo1234')).toBeTruthy();
  });

  it('changes it with the right current password', async () => {
    const email = await scoutSeller(1);
    const token = await server.login(email);
    const response = await server.request('POST', '/api/account/change-password', {
      token,
      body: { current_password: 'demo1234', new_password: 'nytt-losen-123' },
    });
    expect(response.status).toBe(200);
    // The session goes on with a fresh token (every other one ended: sessions.api.test.ts).
    expect(await response.json()).toEqual({ ok: true, token: expect.any(String) });
    expect(await server.login(email, 'nytt-losen-123')).toBeTruthy();
    const old = await server.request('POST', '/api/auth/login', { body: { email, password: 'demo1234' } });
    expect(old.status).toBe(401);
  });
});

describe('change e-mail', () => {
  it('refuses an address another account has, in any case, and an invalid one', async () => {
    const email = await scoutSeller(2);
    const token = await server.login(email);

    const taken = await server.request('POST', '/api/account/change-email', {
      token,
      body: { new_email: 'ELSA@demo.se', current_password: 'demo1234' },
    });
    expect(taken.status).toBe(409);
    expect(await errorOf(taken)).toMatchObject({ code: 'EMAIL_TAKEN', message: 'E-postadressen används redan av ett annat konto' });

    const invalid = await server.request('POST', '/api/account/change-email', {
      token,
      body: { new_email: 'inte-en-adress', current_password: 'demo1234' },
    });
    expect(invalid.status).toBe(400);
    expect((await errorOf(invalid)).message).toBe('Ange en giltig e-postadress');

    const wrongPassword = await server.request('POST', '/api/account/change-email', {
      token,
      body: { new_email: 'ny.adress@demo.se', current_password: 'fel-lösenord' },
    });
    expect(wrongPassword.status).toBe(400);

    const [unchanged] = await rows<{ count: string }>(sql`select count(*)::text as count from users where email = ${email}`);
    expect(unchanged!.count).toBe('1');
  });

  it('changes it, after which the new address signs in', async () => {
    const email = await scoutSeller(3);
    const token = await server.login(email);
    const response = await server.request('POST', '/api/account/change-email', {
      token,
      body: { new_email: ' Scout.Ny@demo.se ', current_password: 'demo1234' },
    });
    expect(response.status).toBe(200);
    const { token: renewed } = (await response.json()) as { token: string };
    const profile = (await (await server.request('GET', '/api/account/profile', { token: renewed })).json()) as TProfileResponse;
    expect(profile.user.email).toBe('Scout.Ny@demo.se');
    expect(await server.login('scout.ny@demo.se')).toBeTruthy();
    expect((await server.request('POST', '/api/auth/login', { body: { email, password: 'demo1234' } })).status).toBe(401);
  });

  it('gives a free address to one of two accounts asking at once; the other is told it is taken', async () => {
    const tokens = await Promise.all([server.login(await scoutSeller(4)), server.login(await scoutSeller(5))]);
    const answers = await Promise.all(
      tokens.map((token) =>
        server.request('POST', '/api/account/change-email', {
          token,
          body: { new_email: 'samma.nya@demo.se', current_password: 'demo1234' },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const [holders] = await rows<{ count: string }>(
      sql`select count(*)::text as count from users where lower(email) = 'samma.nya@demo.se'`,
    );
    expect(holders!.count).toBe('1');
  });
});

describe('groups and switching', () => {
  it("lists the user's memberships with role, code and the active one marked", async () => {
    const token = await server.login('elsa@demo.se');
    const expected = await rows<{
      group_id: number;
      group_name: string;
      group_code: string;
      role: string;
      archived: boolean;
      active: boolean;
    }>(sql`
      select g.id as group_id, g.name as group_name, g.code as group_code, m.role::text as role, g.archived,
             (u.active_group_id = g.id) as active
      from memberships m join groups g on g.id = m.group_id join users u on u.id = m.user_id
      where u.email = 'elsa@demo.se'`);
    expect(expected).toHaveLength(2);

    const { groups } = (await (await server.request('GET', '/api/account/groups', { token })).json()) as TAccountGroupsResponse;
    expect(groups).toHaveLength(expected.length);
    for (const row of expected) {
      expect(groups).toContainEqual({
        group_id: row.group_id,
        group_name: row.group_name,
        group_code: row.group_code,
        role: row.role,
        is_active: row.active,
        archived: row.archived,
      });
    }
    expect(groups.filter((group) => group.is_active)).toHaveLength(1);

    const admin = await server.login('larare@bjorkskolan.se');
    const adminGroups = (await (await server.request('GET', '/api/account/groups', { token: admin })).json()) as TAccountGroupsResponse;
    expect(adminGroups.groups).toEqual([expect.objectContaining({ group_code: 'BJK6B2', role: 'admin', is_active: true })]);
  });

  it('switches to another group of the user and moves the active mark', async () => {
    const token = await server.login('elsa@demo.se');
    const before = (await (await server.request('GET', '/api/account/groups', { token })).json()) as TAccountGroupsResponse;
    const other = before.groups.find((group) => !group.is_active)!;

    const response = await server.request('POST', '/api/account/switch-group', { token, body: { group_id: other.group_id } });
    expect(response.status).toBe(200);
    const after = (await (await server.request('GET', '/api/account/groups', { token })).json()) as TAccountGroupsResponse;
    expect(after.groups.find((group) => group.is_active)?.group_id).toBe(other.group_id);
    const [user] = await rows<{ active_group_id: number }>(sql`select active_group_id from users where email = 'elsa@demo.se'`);
    expect(user!.active_group_id).toBe(other.group_id);
  });

  it('refuses a group the user is not in with 403, and leaves the active group alone', async () => {
    const token = await server.login('noah@demo.se');
    const [before] = await rows<{ active_group_id: number }>(sql`select active_group_id from users where email = 'noah@demo.se'`);
    const [scouts] = await rows<{ id: number }>(sql`select id from groups where code = 'SCT482'`);

    for (const groupId of [scouts!.id, 999_999]) {
      const response = await server.request('POST', '/api/account/switch-group', { token, body: { group_id: groupId } });
      expect(response.status).toBe(403);
      expect((await errorOf(response)).message).toBe('Du är inte medlem i den gruppen');
    }
    const invalid = await server.request('POST', '/api/account/switch-group', { token, body: { group_id: 'sex' } });
    expect(invalid.status).toBe(400);

    const [after] = await rows<{ active_group_id: number }>(sql`select active_group_id from users where email = 'noah@demo.se'`);
    expect(after!.active_group_id).toBe(before!.active_group_id);
  });
});
