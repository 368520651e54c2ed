/**
 * Issue 21, 'Händelselogg': the superadmin reads the audit log (who, what, which group or person,
 * when), filtered by action and a page at a time, written by the admin actions themselves.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAuditResponse, TCreateGroupResponse } from '@saljportalen/contract';
import { groupIdByCode, sqlRows } from '../../../test/admin-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let admin: string;
let created: TCreateGroupResponse;
let scouts: number;
/** The demo data's own entries (its paid payouts), older than every entry of this file. */
let seeded: number;

async function call(method: string, path: string, body?: unknown) {
  const response = await server.request(method, path, { token: admin, body });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBe(200);
  return response;
}

async function audit(query = ''): Promise<TAuditResponse> {
  const response = await server.request('GET', `/api/admin/audit${query}`, { token: admin });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as TAuditResponse;
}

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  admin = await server.login('admin@saljportalen.se');
  scouts = await groupIdByCode(server.app.db, 'SCT482');
  seeded = (await audit()).total;
  // Admin actions, in this order, each writing its own entry.
  created = (await (
    await call('POST', '/api/admin/groups/create', {
      group_name: 'Klass 9A Ekskolan',
      admin: { email: 'maja.mentor@ekskolan.se', password: 'hemligt-123', full_name: 'Maja Mentor' },
    })
  ).json()) as TCreateGroupResponse;
  await call('POST', `/api/admin/group/${created.group.id}/rename`, { name: 'Klass 9A Ekskolan Norr' });
  await call('POST', `/api/admin/groups/${scouts}/add-user`, { email: 'ny.ledare@tallen.se', role: 'admin', full_name: 'Nils Ledare' });
  await call('POST', '/api/admin/payouts', { group_id: scouts, from: '2020-01-01', to: '2099-12-31', auto_archive: false });
});
afterAll(() => server?.close());

describe('GET /api/admin/audit', () => {
  it('shows who did what to which group or person, newest first', async () => {
    const log = await audit();
    const actor = { full_name: expect.any(String), email: 'admin@saljportalen.se' };
    expect(log.items.slice(0, 4)).toEqual([
      expect.objectContaining({
        action: 'payout.create',
        actor: expect.objectContaining(actor),
        group: { id: scouts, name: expect.any(String) },
      }),
      expect.objectContaining({
        action: 'group.add_user',
        group: { id: scouts, name: expect.any(String) },
        user: { id: expect.any(Number), full_name: 'Nils Ledare' },
      }),
      expect.objectContaining({ action: 'group.rename', group: { id: created.group.id, name: 'Klass 9A Ekskolan Norr' } }),
      expect.objectContaining({
        action: 'group.create',
        target_type: 'group',
        target_id: String(created.group.id),
        group: { id: created.group.id, name: 'Klass 9A Ekskolan Norr' },
        user: { id: created.admin!.user_id, full_name: 'Maja Mentor' },
      }),
    ]);
    const [row] = await sqlRows<{ created_at: Date | string }>(
      server.app.db,
      sql`select created_at from audit_entries where action = 'group.create' order by id desc limit 1`,
    );
    expect(log.items[3]!.created_at).toBe(new Date(row!.created_at).toISOString());
    expect(log.total).toBe(seeded + 4);
  });

  it('lists every action the log holds, for the filter', async () => {
    expect((await audit()).actions).toEqual(['group.add_user', 'group.create', 'group.rename', 'payout.create', 'payout.mark_paid']);
  });

  it('filters by action', async () => {
    const renames = await audit('?action=group.rename');
    expect(renames.total).toBe(1);
    expect(renames.items.map((entry) => entry.action)).toEqual(['group.rename']);
    expect((await audit('?action=group.archive')).items).toEqual([]);
    // An empty filter, as a form sends it, is no filter.
    expect((await audit('?action=')).total).toBe(seeded + 4);
  });

  it('pages', async () => {
    const first = await audit('?page=1&page_size=3');
    const second = await audit('?page=2&page_size=3');
    expect(first).toMatchObject({ page: 1, page_size: 3, total: seeded + 4 });
    expect(first.items).toHaveLength(3);
    expect(second.items[0]!.action).toBe('group.create');
    const all = await audit();
    expect([...first.items, ...second.items].map((entry) => entry.id)).toEqual(all.items.slice(0, 6).map((entry) => entry.id));
    expect((await audit(`?page=${Math.ceil((seeded + 4) / 3) + 1}&page_size=3`)).items).toEqual([]);
  });

  it('names a group or person since deleted as nobody, and keeps the entry', async () => {
    await server.app.db.execute(sql`update users set full_name = 'Maja Omdöpt' where email = 'maja.mentor@ekskolan.se'`);
    await server.app.db.execute(
      sql`insert into audit_entries (actor_user_id, action, target_type, target_id) values (null, 'group.archive', 'group', '999999')`,
    );
    const [entry] = (await audit('?action=group.archive')).items;
    expect(entry).toMatchObject({ actor: null, group: null, user: null, target_id: '999999' });
    expect((await audit('?action=group.create')).items[0]!.user!.full_name).toBe('Maja Omdöpt');
  });

  it('refuses a malformed filter or page in Swedish', async () => {
    for (const query of ['?action=DROP%20TABLE', '?page=0', '?page_size=500']) {
      const response = await server.request('GET', `/api/admin/audit${query}`, { token: admin });
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message, query).toMatch(/händelse|Sidan|Högst/);
    }
  });
});
