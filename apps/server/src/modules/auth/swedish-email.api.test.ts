import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAddGroupUserResponse } from '@saljportalen/contract';
import { groupIdByCode, sqlRows } from '../../../test/admin-fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/test-server.js';

/**
 * Issue 19 / decision 030: an address with å, ä or ö before the @ is a real address (RFC 6531).
 * It is accepted wherever an address is typed, finds its account however it is cased or composed,
 * and a malformed one is refused with a Swedish reason.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
});
afterAll(() => server.close());

const post = (path: string, body: unknown, token?: string) => server.request('POST', path, { body, token });
const messageOf = async (response: Response) => ((await response.json()) as { error: { message: string } }).error.message;

describe('addresses with å, ä and ö', () => {
  it('registers a seller, who signs in with the address in any case and however ä was typed', async () => {
    const registered = await post('/api/auth/register-seller', {
      full_name: 'Åsa Öberg',
      email: 'Åsa.Öberg@skolan.se',
      password: 'hemligt123',
      group_code: 'BJK6B2',
    });
    expect(registered.status, await registered.clone().text()).toBe(200);
    const [user] = await sqlRows<{ email: string }>(server.app.db, sql`select email from users where full_name = 'Åsa Öberg'`);
    expect(user!.email).toBe('Åsa.Öberg@skolan.se');

    expect(await server.login('Åsa.Öberg@skolan.se', 'hemligt123')).toBeTruthy();
    expect(await server.login('åsa.öberg@skolan.se', 'hemligt123')).toBeTruthy();
    expect(await server.login(' ÅSA.ÖBERG@SKOLAN.SE ', 'hemligt123')).toBeTruthy();
    // 'A' + combining ring and 'O' + combining diaeresis, as some keyboards send them.
    expect(await server.login('A\u030asa.O\u0308berg@skolan.se', 'hemligt123')).toBeTruthy();
  });

  it('lets a superadmin add a user with such an address, and mails the welcome there', async () => {
    const token = await server.login('admin@saljportalen.se');
    const groupId = await groupIdByCode(server.app.db, 'SCT482');
    const response = await post(
      `/api/admin/groups/${groupId}/add-user`,
      { email: 'björn.änglund@tallen.se', role: 'seller', full_name: 'Björn Änglund' },
      token,
    );
    expect(response.status, await response.clone().text()).toBe(200);
    expect(((await response.json()) as TAddGroupUserResponse).user).toMatchObject({ email: 'björn.änglund@tallen.se', is_new_user: true });
    expect(
      server
        .mails()
        .filter((mail) => mail.to === 'björn.änglund@tallen.se')
        .map((mail) => mail.subject),
    ).toEqual(['Välkommen till Säljportalen']);
    // The same person added again, typed differently, is the same account.
    const again = await post(
      `/api/admin/groups/${groupId}/add-user`,
      { email: 'BJÖRN.ÄNGLUND@tallen.se', role: 'admin', full_name: 'Björn Änglund' },
      token,
    );
    expect(((await again.json()) as TAddGroupUserResponse).user).toMatchObject({ email: 'björn.änglund@tallen.se', is_new_user: false });
  });

  it('mails a reset link to such an address', async () => {
    expect((await post('/api/auth/forgot-password', { email: 'åsa.öberg@skolan.se' })).status).toBe(200);
    const mail = await eventually(() => server.mails().find((sent) => sent.to === 'Åsa.Öberg@skolan.se'));
    expect(mail.subject).toBe('Återställ ditt lösenord på Säljportalen');
  });

  it('refuses an address that is not one, naming the reason in Swedish', async () => {
    const token = await server.login('admin@saljportalen.se');
    const groupId = await groupIdByCode(server.app.db, 'SCT482');
    for (const email of ['åsa.öberg', 'åsa öberg@skolan.se', 'åsa..öberg@skolan.se', 'åsa@skolan']) {
      const register = await post('/api/auth/register-seller', {
        full_name: 'Åsa Öberg',
        email,
        password: 'hemligt123',
        group_code: 'BJK6B2',
      });
      expect(register.status, email).toBe(400);
      expect(await messageOf(register)).toBe('Ange en giltig e-postadress');
      const add = await post(`/api/admin/groups/${groupId}/add-user`, { email, role: 'seller', full_name: 'Åsa Öberg' }, token);
      expect(add.status, email).toBe(400);
      expect(await messageOf(add)).toBe('Ange en giltig e-postadress');
      const login = await post('/api/auth/login', { email, password: 'hemligt123' });
      expect(login.status, email).toBe(400);
      expect(await messageOf(login)).toBe('Ange en giltig e-postadress');
    }
  });
});
