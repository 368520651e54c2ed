/**
 * Issue 15: names and titles reach the database as one line. Every form that stores a name
 * (seller registration, profile, add user, create group with its administrator, rename, the PATCH
 * fallback) goes through the contract's `ZSingleLineTextSchema`, so a line break, a tab or an escape
 * typed into a name can never start a CSV row, a formula or a terminal sequence later.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCreateGroupResponse, TTokenResponse } from '@saljportalen/contract';
import { sqlRows } from './admin-fixtures.js';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
let superadmin: string;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  superadmin = await server.login('admin@saljportalen.se');
});
afterAll(() => server.close());

async function stored<T>(query: ReturnType<typeof sql>): Promise<T> {
  const [row] = await sqlRows<T>(server.app.db, query);
  return row!;
}

async function ok(response: Response): Promise<unknown> {
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

describe('names typed with control characters', () => {
  it('are stored as one line by every form that stores a name', async () => {
    const registered = (await ok(
      await server.request('POST', '/api/auth/register-seller', {
        body: { full_name: "Noah\r=cmd|' /C calc'!A0", email: 'rad@demo.se', password: 'hemligt123', group_code: 'BJK6B2' },
      }),
    )) as TTokenResponse;
    expect(await stored(sql`select full_name from users where email = 'rad@demo.se'`)).toEqual({ full_name: "Noah =cmd|' /C calc'!A0" });

    await ok(
      await server.request('POST', '/api/account/profile', {
        token: registered.token,
        body: { full_name: 'Noah\n+1+1\u001b[31m', phone: '070\r\n123\t45' },
      }),
    );
    expect(await stored(sql`select full_name, phone from users where email = 'rad@demo.se'`)).toEqual({
      full_name: 'Noah +1+1 [31m',
      phone: '070 123 45',
    });

    const created = (await ok(
      await server.request('POST', '/api/admin/groups/create', {
        token: superadmin,
        body: {
          group_name: 'Klass\r\n=1+1',
          admin: { email: 'radlarare@demo.se', password: 'hemligt', full_name: '\tKarin\u0085@SUM(A1)', phone: '08\n123 45' },
        },
      }),
    )) as TCreateGroupResponse;
    expect(created.group.name).toBe('Klass =1+1');
    expect(await stored(sql`select name from groups where id = ${created.group.id}`)).toEqual({ name: 'Klass =1+1' });
    expect(await stored(sql`select full_name, phone from users where email = 'radlarare@demo.se'`)).toEqual({
      full_name: 'Karin @SUM(A1)',
      phone: '08 123 45',
    });

    await ok(
      await server.request('POST', `/api/admin/groups/${created.group.id}/add-user`, {
        token: superadmin,
        body: { email: 'radelev@demo.se', role: 'seller', full_name: 'Elsa\u2028-2+3', phone: '\u007f070 123 45' },
      }),
    );
    expect(await stored(sql`select full_name, phone from users where email = 'radelev@demo.se'`)).toEqual({
      full_name: 'Elsa -2+3',
      phone: '070 123 45',
    });

    await ok(
      await server.request('POST', `/api/admin/group/${created.group.id}/rename`, { token: superadmin, body: { name: '6B\r\r@x' } }),
    );
    expect(await stored(sql`select name from groups where id = ${created.group.id}`)).toEqual({ name: '6B @x' });

    await ok(
      await server.request('PATCH', `/api/admin/group/${created.group.id}`, { token: superadmin, body: { name: '\u2029Klass\n6C\n' } }),
    );
    expect(await stored(sql`select name from groups where id = ${created.group.id}`)).toEqual({ name: 'Klass 6C' });
  });

  it('are no name at all when they hold nothing else', async () => {
    const response = await server.request('POST', '/api/auth/register-seller', {
      body: { full_name: '\r\n\t', email: 'tom@demo.se', password: 'hemligt123', group_code: 'BJK6B2' },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('Namn krävs');
    const created = await server.request('POST', '/api/admin/groups/create', { token: superadmin, body: { group_name: '\n\u0007' } });
    expect(created.status).toBe(400);
  });
});
