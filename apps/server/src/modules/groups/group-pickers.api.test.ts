import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAdminGroupMembersResponse, TAdminGroupOptionsResponse, TAdminGroupListResponse } from '@saljportalen/contract';
import { groupIdByCode, sqlRows } from '../../../test/admin-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let token: string;

const getJson = async <T>(path: string): Promise<T> => {
  const response = await server.request('GET', path, { token });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as T;
};

/** More groups than the group list's largest page (500), the oldest with names that sort first. */
const MASS_GROUPS = 620;
/** In Swedish order: digits by value, case and accents as a Swedish reader expects, Å Ä Ö after Z. */
const SWEDISH_ORDER = [
  'Abc Alfaskolan',
  'Bäckby BK',
  'Émile-klassen',
  'Klass 9C Testskolan',
  'Klass 10C Testskolan',
  'Zeta FK',
  'Åsa IK',
  'Ängby IF',
  'Ängen scouter',
  'Östra skolan',
];

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  token = await server.login('admin@saljportalen.se');
  // Inserted first, so that they are the oldest groups: the list's newest-first page never reaches them.
  await server.app.db.execute(sql`
    insert into groups (name, code, archived, created_at)
    select 'Aaa Massgrupp ' || lpad(n::text, 4, '0'), 'MASS' || n, n % 10 = 0, timestamptz '2020-01-01' + n * interval '1 minute'
    from generate_series(1, ${MASS_GROUPS}) as n`);
  // Shuffled, so that neither insertion order nor id order is the Swedish order.
  for (const [index, name] of [5, 9, 0, 7, 2, 8, 4, 1, 6, 3].map((position) => [position, SWEDISH_ORDER[position]!] as const)) {
    await server.app.db.execute(
      sql`insert into groups (name, code, created_at) values (${name}, ${`SV${index}X`}, timestamptz '2019-06-01' + ${index} * interval '1 day')`,
    );
  }
});
afterAll(() => server.close());

describe('GET /api/admin/groups/options', () => {
  it('lists every group, far more than one page of the group list, archived ones marked', async () => {
    const options = await getJson<TAdminGroupOptionsResponse>('/api/admin/groups/options');
    const [count] = await sqlRows<{ total: string; archived: string }>(
      server.app.db,
      sql`select count(*) as total, count(*) filter (where archived) as archived from groups`,
    );
    expect(Number(count!.total)).toBeGreaterThan(MASS_GROUPS + SWEDISH_ORDER.length);
    expect(options.items).toHaveLength(Number(count!.total));
    expect(new Set(options.items.map((option) => option.id)).size).toBe(options.items.length);
    expect(options.items.filter((option) => option.archived)).toHaveLength(Number(count!.archived));
    expect(Object.keys(options.items[0]!).sort()).toEqual(['archived', 'id', 'name']);

    // The group list's largest page stops short of the oldest groups; the options have them all.
    const page = await getJson<TAdminGroupListResponse>('/api/admin/groups?limit=500');
    expect(page.total).toBe(options.items.length);
    const oldest = options.items.find((option) => option.name === 'Aaa Massgrupp 0001')!;
    expect(page.items.some((group) => group.id === oldest.id)).toBe(false);
    expect(oldest).toMatchObject({ archived: false });
    expect(options.items.find((option) => option.name === 'Aaa Massgrupp 0010')).toMatchObject({ archived: true });
  });

  it('sorts by name in Swedish order: Å, Ä, Ö after Z, numbers by value', async () => {
    const options = await getJson<TAdminGroupOptionsResponse>('/api/admin/groups/options');
    const names = options.items.map((option) => option.name);
    const ours = new Set(SWEDISH_ORDER);
    expect(names.filter((name) => ours.has(name))).toEqual(SWEDISH_ORDER);
    expect(names.slice(0, MASS_GROUPS)).toEqual(
      Array.from({ length: MASS_GROUPS }, (_, index) => `Aaa Massgrupp ${String(index + 1).padStart(4, '0')}`),
    );
    // The whole list, demo groups too: each name sorts at or after the one before it.
    const collator = new Intl.Collator('sv', { numeric: true });
    for (let index = 1; index < names.length; index++) expect(collator.compare(names[index - 1]!, names[index]!)).toBeLessThanOrEqual(0);
    expect(names.indexOf('Östra skolan')).toBeGreaterThan(names.indexOf('Zeta FK'));
    expect(names.at(-1)).toBe('Östra skolan');
  });
});

describe('GET /api/admin/groups/{id}/members', () => {
  it('lists everyone in the group by name, with the membership an order is assigned to', async () => {
    const groupId = await groupIdByCode(server.app.db, 'BJK6B2');
    const members = await getJson<TAdminGroupMembersResponse>(`/api/admin/groups/${groupId}/members`);
    const expected = await sqlRows<{ id: number; user_id: number; full_name: string; email: string; role: string }>(
      server.app.db,
      sql`select m.id, m.user_id, u.full_name, u.email, m.role from memberships m join users u on u.id = m.user_id where m.group_id = ${groupId}`,
    );
    expect(members.items.length).toBeGreaterThan(3);
    expect(members.items).toHaveLength(expected.length);
    const collator = new Intl.Collator('sv', { numeric: true });
    const byName = [...expected].sort((a, b) => collator.compare(a.full_name, b.full_name) || a.id - b.id);
    expect(members.items).toEqual(
      byName.map((row) => ({
        membership_id: Number(row.id),
        user_id: Number(row.user_id),
        full_name: row.full_name,
        email: row.email,
        role: row.role,
      })),
    );
    expect(members.items.some((member) => member.role === 'admin')).toBe(true);
  });

  it('answers an empty group with no one, a missing group with 404 and a bad id with 400', async () => {
    const [empty] = await sqlRows<{ id: number }>(server.app.db, sql`select id from groups where code = 'MASS1'`);
    expect(await getJson<TAdminGroupMembersResponse>(`/api/admin/groups/${empty!.id}/members`)).toEqual({ items: [] });
    const missing = await server.request('GET', '/api/admin/groups/987654321/members', { token });
    expect([missing.status, ((await missing.json()) as { error: { message: string } }).error.message]).toEqual([
      404,
      'Grupp hittades inte',
    ]);
    expect((await server.request('GET', '/api/admin/groups/abc/members', { token })).status).toBe(400);
  });
});
