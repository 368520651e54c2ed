import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TAddGroupUserResponse,
  TAdminGroupDetailResponse,
  TAdminGroupListResponse,
  TAdminGroupRecordResponse,
  TCreateGroupResponse,
  TGroupChangeResponse,
} from '@saljportalen/contract';
import { UNAMBIGUOUS_ALPHABET } from '../../lib/random-codes.js';
import { figuresFromOrders, groupIdByCode, insertOrder, membershipOf, sqlRows, sumSek } from '../../../test/admin-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { insertGroupWithUniqueCode } from './group-code.js';

let server: TestServer;
let token: string;
let adminUserId: number;

type ErrorAnswer = { error: { code: string; message: string } };

const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
async function ok<T>(response: Response): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}
async function refused(response: Response, status: number, message: string) {
  expect(response.status).toBe(status);
  expect(((await response.json()) as ErrorAnswer).error.message).toBe(message);
}
const auditEntries = (groupId: number) =>
  sqlRows<{ action: string; actor_user_id: number; details: Record<string, unknown> | null }>(
    server.app.db,
    sql`select action, actor_user_id, details from audit_entries where target_type = 'group' and target_id = ${String(groupId)} order by id`,
  );

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  token = await server.login('admin@saljportalen.se');
  const [admin] = await sqlRows<{ id: number }>(server.app.db, sql`select id from users where email = 'admin@saljportalen.se'`);
  adminUserId = admin!.id;
});
afterAll(() => server.close());

describe('POST /api/admin/groups/create', () => {
  it('refuses each missing or bad field with the spec’s message', async () => {
    const create = (body: unknown) => call('POST', '/api/admin/groups/create', body);
    const admin = { email: 'ny.admin@demo.se', password: 'hemlig', full_name: 'Ny Admin' };
    await refused(await create({}), 400, 'Gruppnamn krävs');
    await refused(await create({ group_name: '   ' }), 400, 'Gruppnamn krävs');
    await refused(await create({ group_name: 'x'.repeat(121) }), 400, 'Gruppnamnet får vara högst 120 tecken');
    await refused(await create({ group_name: 'Klass 1', admin: {} }), 400, 'Admin-uppgifter krävs');
    await refused(await create({ group_name: 'Klass 1', admin: 'ja' }), 400, 'Admin-uppgifter krävs');
    await refused(await create({ group_name: 'Klass 1', admin: { ...admin, email: ' ' } }), 400, 'Admin-uppgifter krävs');
    await refused(await create({ group_name: 'Klass 1', admin: { ...admin, password: '' } }), 400, 'Admin-uppgifter krävs');
    await refused(await create({ group_name: 'Klass 1', admin: { ...admin, full_name: undefined } }), 400, 'Admin-uppgifter krävs');
    await refused(
      await create({ group_name: 'Klass 1', admin: { ...admin, password: '12345' } }),
      400,
      'Lösenordet måste vara minst 6 tecken',
    );
    await refused(
      await create({ group_name: 'Klass 1', admin: { ...admin, email: 'inte-en-adress' } }),
      400,
      'Ange en giltig e-postadress',
    );
    const [{ count }] = (await sqlRows<{ count: string }>(server.app.db, sql`select count(*) from groups where name = 'Klass 1'`)) as [
      { count: string },
    ];
    expect(Number(count)).toBe(0);
  });

  it('creates a group under a fresh six-character code, trimmed, and records it in the audit log', async () => {
    const answer = await ok<TCreateGroupResponse>(
      await call('POST', '/api/admin/groups/create', { group_name: '  Klass 4C Lindskolan  ' }),
    );
    expect(answer.group.name).toBe('Klass 4C Lindskolan');
    expect(answer.group.group_code).toMatch(new RegExp(`^[${UNAMBIGUOUS_ALPHABET}]{6}$`));
    expect(answer.admin).toBeNull();
    const fetched = await ok<TAdminGroupRecordResponse>(await call('GET', `/api/admin/groups/${answer.group.id}`));
    expect(fetched.group).toEqual({ ...answer.group, archived: false, created_at: expect.any(String) });
    expect(await auditEntries(answer.group.id)).toEqual([
      { action: 'group.create', actor_user_id: adminUserId, details: { name: 'Klass 4C Lindskolan', code: answer.group.group_code } },
    ]);
    // Sellers can join with the new code.
    const joined = await server.request('POST', '/api/auth/register-seller', {
      body: { full_name: 'Kim Lind', email: 'kim.lind@demo.se', password: 'hemligt123', group_code: answer.group.group_code.toLowerCase() },
    });
    expect(joined.status).toBe(200);
  });

  it('with a new administrator: creates the account with the given password, makes it admin and mails a welcome', async () => {
    const answer = await ok<TCreateGroupResponse>(
      await call('POST', '/api/admin/groups/create', {
        group_name: 'Handbollsklubben P13',
        admin: { email: ' Tranare@Handboll.se ', password: 'sexsex', full_name: ' Tina Tränare ', phone: ' 070-111 22 33 ' },
      }),
    );
    expect(answer.admin).toEqual({ user_id: expect.any(Number), email: 'Tranare@Handboll.se', is_new_user: true });
    const [user] = await sqlRows<{ full_name: string; phone: string; role: string }>(
      server.app.db,
      sql`select u.full_name, u.phone, m.role from users u join memberships m on m.user_id = u.id where u.id = ${answer.admin!.user_id} and m.group_id = ${answer.group.id}`,
    );
    expect(user).toEqual({ full_name: 'Tina Tränare', phone: '070-111 22 33', role: 'admin' });
    expect(await server.login('tranare@handboll.se', 'sexsex')).toBeTruthy();
    const mail = server.mails().find((m) => m.to === 'Tranare@Handboll.se')!;
    expect(mail.subject).toBe('Välkommen till Säljportalen');
    expect(mail.text).toContain('Handbollsklubben P13');
    expect(mail.text).toContain('administratör');
    expect(mail.text).toContain('http://localhost:3000/auth/forgot-password');
    expect(mail.text).not.toContain('sexsex');
    expect((await auditEntries(answer.group.id))[0]!.details).toMatchObject({ adminUserId: answer.admin!.user_id, adminIsNewUser: true });
  });

  it('with an existing account as administrator: keeps its password and name, sends no mail', async () => {
    const mailsBefore = server.mails().length;
    const answer = await ok<TCreateGroupResponse>(
      await call('POST', '/api/admin/groups/create', {
        group_name: 'Elsas dansgrupp',
        admin: { email: 'ELSA@demo.se', password: 'annat-losenord', full_name: 'Någon Annan' },
      }),
    );
    expect(answer.admin).toMatchObject({ email: 'elsa@demo.se', is_new_user: false });
    expect(await server.login('elsa@demo.se', 'demo1234')).toBeTruthy();
    const [elsa] = await sqlRows<{ full_name: string }>(server.app.db, sql`select full_name from users where email = 'elsa@demo.se'`);
    expect(elsa!.full_name).toBe('Elsa Andersson');
    expect((await membershipOf(server.app.db, 'elsa@demo.se', answer.group.group_code)).groupId).toBe(answer.group.id);
    expect(server.mails()).toHaveLength(mailsBefore);
  });

  it('tries the next code when one is taken', async () => {
    const codes = ['BJK6B2', 'SCT482', 'QQQ222'];
    const group = await insertGroupWithUniqueCode(server.app.db, { name: 'Kodkrock', nextCode: () => codes.shift()! });
    expect(group.code).toBe('QQQ222');
    expect(codes).toEqual([]);
  });
});

describe('GET /api/admin/groups and /api/admin/groups/{id}', () => {
  it('filters on status, searches name and code, pages with an exact total', async () => {
    const all = await ok<TAdminGroupListResponse>(await call('GET', '/api/admin/groups?limit=500'));
    const [counts] = await sqlRows<{ total: string; archived: string }>(
      server.app.db,
      sql`select count(*) as total, count(*) filter (where archived) as archived from groups`,
    );
    expect(all.total).toBe(Number(counts!.total));
    expect(all.items).toHaveLength(all.total);
    const archived = await ok<TAdminGroupListResponse>(await call('GET', '/api/admin/groups?status=archived'));
    expect(archived.total).toBe(Number(counts!.archived));
    expect(archived.items.map((group) => group.code)).toContain('EK9A34');
    expect(archived.items.every((group) => group.archived)).toBe(true);
    const active = await ok<TAdminGroupListResponse>(await call('GET', '/api/admin/groups?status=active'));
    expect(active.items.every((group) => !group.archived)).toBe(true);
    expect(active.total + archived.total).toBe(all.total);

    const byName = await ok<TAdminGroupListResponse>(await call('GET', `/api/admin/groups?q=${encodeURIComponent('björk')}`));
    expect(byName.items.map((group) => group.code)).toEqual(['BJK6B2']);
    const byCode = await ok<TAdminGroupListResponse>(await call('GET', '/api/admin/groups?q=sct4'));
    expect(byCode.items.map((group) => group.name)).toEqual(['Scoutkåren Tallen']);
    const wildcard = await ok<TAdminGroupListResponse>(await call('GET', `/api/admin/groups?q=${encodeURIComponent('%')}`));
    expect(wildcard).toMatchObject({ items: [], total: 0 });
    const archivedSearch = await ok<TAdminGroupListResponse>(await call('GET', '/api/admin/groups?status=active&q=ekskolan'));
    expect(archivedSearch.total).toBe(0);

    const pages = [0, 2, 4, 6].map((offset) => call('GET', `/api/admin/groups?limit=2&offset=${offset}`));
    const paged = await Promise.all(pages.map(async (page) => ok<TAdminGroupListResponse>(await page)));
    expect(paged.flatMap((page) => page.items).map((group) => group.id)).toEqual(all.items.slice(0, 8).map((group) => group.id));
    expect(paged.every((page) => page.total === all.total)).toBe(true);
  });

  it('gives each group its figures straight from the orders table', async () => {
    const list = await ok<TAdminGroupListResponse>(await call('GET', '/api/admin/groups?limit=500'));
    for (const group of list.items) {
      const figures = await figuresFromOrders(server.app.db, sql`group_id = ${group.id}`);
      const [members] = await sqlRows<{ count: string }>(server.app.db, sql`select count(*) from memberships where group_id = ${group.id}`);
      expect(group).toMatchObject({
        total_sales: figures.sales_ore / 100,
        total_commission: figures.commission_ore / 100,
        sellers_count: Number(members!.count),
      });
    }
  });

  it('answers 404 for an unknown group and 400 for an id that is no number', async () => {
    await refused(await call('GET', '/api/admin/groups/999999'), 404, 'Grupp hittades inte');
    await refused(await call('GET', '/api/admin/group/999999'), 404, 'Grupp hittades inte');
    await refused(await call('GET', '/api/admin/groups/abc'), 400, 'Ogiltigt id');
    await refused(await call('GET', '/api/admin/group/-3'), 400, 'Ogiltigt id');
  });
});

describe('GET /api/admin/group/{id}, paged', () => {
  const MEMBERS = 120;
  let groupId: number;
  let sellersPage: (query: string) => Promise<TAdminGroupDetailResponse>;

  /** The group's people the way the detail must order them, straight from the orders table. */
  const expectedOrder = async () => {
    const rows = await sqlRows<{ user_id: number; full_name: string; membership_id: number; sales_ore: string }>(
      server.app.db,
      sql`select m.user_id, u.full_name, m.id as membership_id,
                 (select coalesce(sum(o.subtotal_ore), 0) from orders o where o.membership_id = m.id) as sales_ore
          from memberships m join users u on u.id = m.user_id where m.group_id = ${groupId}`,
    );
    // The names are plain ASCII, so JavaScript and every collation sort them alike.
    return rows
      .map((row) => ({ ...row, user_id: Number(row.user_id), membership_id: Number(row.membership_id), sales_ore: Number(row.sales_ore) }))
      .sort(
        (a, b) =>
          b.sales_ore - a.sales_ore ||
          (a.full_name < b.full_name ? -1 : a.full_name > b.full_name ? 1 : 0) ||
          a.membership_id - b.membership_id,
      );
  };

  beforeAll(async () => {
    const created = await ok<TCreateGroupResponse>(
      await call('POST', '/api/admin/groups/create', {
        group_name: 'Stora klubben',
        admin: { email: 'ledare@storaklubben.se', password: 'hemlig', full_name: 'Lena Ledare' },
      }),
    );
    groupId = created.group.id;
    // The last two share a name and sell nothing, so that only the membership tells them apart.
    await server.app.db.execute(sql`
      with people as (
        insert into users (email, password_hash, full_name)
        select 'medlem' || i || '@storaklubben.se', 'ingen-inloggning',
               'Medlem ' || lpad(least(i, ${MEMBERS - 2})::text, 3, '0')
        from generate_series(1, ${MEMBERS - 1}) as i
        returning id
      )
      insert into memberships (user_id, group_id, role, link_code)
      select id, ${groupId}, 'seller', 'STORA' || id from people`);
    const members = await sqlRows<{ id: number; user_id: number }>(
      server.app.db,
      sql`select m.id, m.user_id from memberships m join users u on u.id = m.user_id
          where m.group_id = ${groupId} and u.email like 'medlem%' order by m.id`,
    );
    // Sales in a few steps, so that many people tie on sales; the rest sell nothing.
    for (const [index, member] of members.slice(0, 70).entries()) {
      await insertOrder(server.app.db, {
        membership: { id: Number(member.id), groupId },
        orderedAt: new Date('2026-03-02T10:00:00Z'),
        lines: [{ amountOre: ((index % 6) + 1) * 14_900 }],
      });
    }
    sellersPage = async (query: string) => ok<TAdminGroupDetailResponse>(await call('GET', `/api/admin/group/${groupId}?${query}`));
  });

  it('pages the people by sales, highest first, without overlap, and keeps the cards and the total exact', async () => {
    const expected = await expectedOrder();
    expect(expected).toHaveLength(MEMBERS);
    const figures = await figuresFromOrders(server.app.db, sql`group_id = ${groupId}`);
    const totals = {
      total_sales: figures.sales_ore / 100,
      total_commission: figures.commission_ore / 100,
      orders_count: 70,
      sellers_count: MEMBERS,
    };

    const first = await ok<TAdminGroupDetailResponse>(await call('GET', `/api/admin/group/${groupId}`));
    expect(first.sellers_page).toEqual({ total: MEMBERS, limit: 50, offset: 0 });
    expect(first.sellers).toHaveLength(50);
    expect(first.totals).toEqual(totals);

    const pages = [first, await sellersPage('offset=50'), await sellersPage('limit=50&offset=100')];
    expect(pages.map((page) => page.sellers.length)).toEqual([50, 50, 20]);
    for (const page of pages) {
      expect(page.totals).toEqual(totals);
      expect(page.group).toEqual(first.group);
      expect(page.sellers_page.total).toBe(MEMBERS);
    }
    const rows = pages.flatMap((page) => page.sellers);
    expect(new Set(rows.map((row) => row.user_id)).size).toBe(MEMBERS);
    expect(rows.map((row) => row.user_id)).toEqual(expected.map((row) => row.user_id));
    expect(rows.map((row) => Math.round(row.total_sales * 100))).toEqual(expected.map((row) => row.sales_ore));
    expect(sumSek(rows.map((row) => row.total_sales))).toBe(totals.total_sales);
    expect(rows.filter((row) => row.is_admin).map((row) => row.full_name)).toEqual(['Lena Ledare']);

    // One page of everything is the same list; a page past the end is empty but still counts everyone.
    expect((await sellersPage('limit=500')).sellers).toEqual(rows);
    expect((await sellersPage('limit=7&offset=13')).sellers).toEqual(rows.slice(13, 20));
    const beyond = await sellersPage('offset=500');
    expect(beyond.sellers).toEqual([]);
    expect(beyond.sellers_page).toEqual({ total: MEMBERS, limit: 50, offset: 500 });
    expect(beyond.totals).toEqual(totals);
    // An empty field from a form means "not given".
    expect((await sellersPage('limit=&offset=')).sellers_page).toEqual({ total: MEMBERS, limit: 50, offset: 0 });
  });

  it('refuses a bad page with a Swedish 400', async () => {
    for (const [query, message] of [
      ['limit=0', 'Ogiltigt antal per sida'],
      ['limit=abc', 'Ogiltigt antal per sida'],
      ['limit=2.5', 'Ogiltigt antal per sida'],
      ['limit=501', 'Högst 500 per sida'],
      ['offset=-1', 'Ogiltig startposition'],
      ['offset=xyz', 'Ogiltig startposition'],
      ['offset=1.5', 'Ogiltig startposition'],
    ] as const) {
      await refused(await call('GET', `/api/admin/group/${groupId}?${query}`), 400, message);
    }
  });
});

describe('archive, reactivate and rename', () => {
  let groupId: number;
  let code: string;
  beforeAll(async () => {
    const created = await ok<TCreateGroupResponse>(await call('POST', '/api/admin/groups/create', { group_name: 'Klass 7D Granskolan' }));
    groupId = created.group.id;
    code = created.group.group_code;
  });

  it('archives, then reactivates; asking for the state a group already has changes nothing', async () => {
    const archived = await ok<TGroupChangeResponse>(await call('POST', `/api/admin/group/${groupId}/archive`, { archived: true }));
    expect(archived).toEqual({ group: expect.objectContaining({ id: groupId, archived: true }), changed: true });
    const list = await ok<TAdminGroupListResponse>(await call('GET', '/api/admin/groups?status=archived&limit=500'));
    expect(list.items.map((group) => group.id)).toContain(groupId);
    const refusedJoin = await server.request('POST', '/api/auth/register-seller', {
      body: { full_name: 'Sen Säljare', email: 'sen@demo.se', password: 'hemligt123', group_code: code },
    });
    expect(refusedJoin.status).toBe(400);

    const again = await ok<TGroupChangeResponse>(await call('POST', `/api/admin/group/${groupId}/archive`, { archived: true }));
    expect(again.changed).toBe(false);
    const reactivated = await ok<TGroupChangeResponse>(await call('POST', `/api/admin/group/${groupId}/archive`, { archived: false }));
    expect(reactivated).toEqual({ group: expect.objectContaining({ archived: false }), changed: true });
    expect((await ok<TAdminGroupRecordResponse>(await call('GET', `/api/admin/groups/${groupId}`))).group.archived).toBe(false);
    const active = await ok<TAdminGroupListResponse>(await call('GET', '/api/admin/groups?status=active&limit=500'));
    expect(active.items.map((group) => group.id)).toContain(groupId);
    expect((await auditEntries(groupId)).map((entry) => entry.action)).toEqual(['group.create', 'group.archive', 'group.reactivate']);
  });

  it('refuses an archive request without a yes or no', async () => {
    await refused(
      await call('POST', `/api/admin/group/${groupId}/archive`, {}),
      400,
      'Ange om gruppen ska arkiveras (archived: true eller false)',
    );
    await refused(
      await call('POST', `/api/admin/group/${groupId}/archive`, { archived: 'ja' }),
      400,
      'Ange om gruppen ska arkiveras (archived: true eller false)',
    );
    await refused(await call('POST', '/api/admin/group/999999/archive', { archived: true }), 404, 'Grupp hittades inte');
  });

  it('renames with a trimmed name, and ignores an empty or unchanged one', async () => {
    const renamed = await ok<TGroupChangeResponse>(
      await call('POST', `/api/admin/group/${groupId}/rename`, { name: '  Klass 8D Granskolan ' }),
    );
    expect(renamed).toEqual({ group: expect.objectContaining({ name: 'Klass 8D Granskolan' }), changed: true });
    for (const name of ['', '   ', 'Klass 8D Granskolan', ' Klass 8D Granskolan  ']) {
      const ignored = await ok<TGroupChangeResponse>(await call('POST', `/api/admin/group/${groupId}/rename`, { name }));
      expect(ignored).toEqual({ group: expect.objectContaining({ name: 'Klass 8D Granskolan' }), changed: false });
    }
    const renames = (await auditEntries(groupId)).filter((entry) => entry.action === 'group.rename');
    expect(renames).toEqual([
      { action: 'group.rename', actor_user_id: adminUserId, details: { from: 'Klass 7D Granskolan', to: 'Klass 8D Granskolan' } },
    ]);
    await refused(await call('POST', `/api/admin/group/${groupId}/rename`, {}), 400, 'Gruppnamn krävs');
    await refused(
      await call('POST', `/api/admin/group/${groupId}/rename`, { name: 'x'.repeat(121) }),
      400,
      'Gruppnamnet får vara högst 120 tecken',
    );
  });

  it('does both through the PATCH fallback, each by its own rules', async () => {
    const both = await ok<TGroupChangeResponse>(
      await call('PATCH', `/api/admin/group/${groupId}`, { name: ' Klass 9D Granskolan', archived: true }),
    );
    expect(both).toEqual({ group: expect.objectContaining({ name: 'Klass 9D Granskolan', archived: true }), changed: true });
    const nameOnly = await ok<TGroupChangeResponse>(await call('PATCH', `/api/admin/group/${groupId}`, { name: '' }));
    expect(nameOnly).toEqual({ group: expect.objectContaining({ name: 'Klass 9D Granskolan', archived: true }), changed: false });
    const back = await ok<TGroupChangeResponse>(await call('PATCH', `/api/admin/group/${groupId}`, { archived: false }));
    expect(back.group.archived).toBe(false);
    await refused(await call('PATCH', `/api/admin/group/${groupId}`, {}), 400, 'Ange vad som ska ändras: name eller archived');
    expect((await auditEntries(groupId)).map((entry) => entry.action).slice(-3)).toEqual([
      'group.rename',
      'group.archive',
      'group.reactivate',
    ]);
  });
});

describe('POST /api/admin/groups/{id}/add-user', () => {
  let groupId: number;
  beforeAll(async () => {
    groupId = await groupIdByCode(server.app.db, 'SCT482');
  });
  const addUser = (body: unknown, id = groupId) => call('POST', `/api/admin/groups/${id}/add-user`, body);

  it('refuses a missing e-mail, a missing name for an admin or a new user, and an unknown group', async () => {
    await refused(await addUser({ role: 'seller', full_name: 'Utan Adress' }), 400, 'E-post krävs');
    await refused(await addUser({ email: '', role: 'seller' }), 400, 'E-post krävs');
    await refused(await addUser({ email: 'noah@demo.se', role: 'admin' }), 400, 'Namn krävs för administratörer');
    await refused(await addUser({ email: 'noah@demo.se', role: 'admin', full_name: '  ' }), 400, 'Namn krävs för administratörer');
    await refused(await addUser({ email: 'helt.ny@demo.se', role: 'seller' }), 400, 'Namn krävs för nya användare');
    await refused(await addUser({ email: 'noah@demo.se', role: 'kung' }), 400, 'Ogiltig roll');
    await refused(await addUser({ email: 'noah@demo.se', role: 'seller' }, 999999), 404, 'Grupp hittades inte');
    const [{ count }] = (await sqlRows<{ count: string }>(
      server.app.db,
      sql`select count(*) from users where email = 'helt.ny@demo.se'`,
    )) as [{ count: string }];
    expect(Number(count)).toBe(0);
  });

  it('creates a new user with a password nobody knows, adds them and mails the way to choose one', async () => {
    const answer = await ok<TAddGroupUserResponse>(
      await addUser({ email: 'Ny.Scout@Demo.se', role: 'seller', full_name: ' Nils Scout ', phone: '' }),
    );
    expect(answer.user).toEqual({ id: expect.any(Number), email: 'Ny.Scout@Demo.se', role: 'seller', is_new_user: true });
    const membership = await membershipOf(server.app.db, 'ny.scout@demo.se', 'SCT482');
    expect(membership.userId).toBe(answer.user.id);
    const [user] = await sqlRows<{ full_name: string; phone: string | null; active_group_id: number }>(
      server.app.db,
      sql`select full_name, phone, active_group_id from users where id = ${answer.user.id}`,
    );
    expect(user).toEqual({ full_name: 'Nils Scout', phone: null, active_group_id: groupId });
    const mail = server.mails().find((m) => m.to === 'Ny.Scout@Demo.se')!;
    expect(mail.subject).toBe('Välkommen till Säljportalen');
    expect(mail.text).toContain('Scoutkåren Tallen');
    expect(mail.text).toContain('säljare');
    // The welcome mail carries a single-use link to choose a password directly (issue 19).
    const link = new URL(mail.link!);
    expect(`${link.origin}${link.pathname}`).toBe('http://localhost:3000/auth/reset-password');
    expect(link.searchParams.get('valkommen')).toBe('1');
    expect(mail.text).toContain(`Välj lösenord:\n${mail.link}`);
    expect(mail.html).toContain('>Välj lösenord</a>');
    expect(mail.html).toContain('Scoutkåren Tallen');
    // No password works until the person has chosen one.
    expect((await server.request('POST', '/api/auth/login', { body: { email: 'ny.scout@demo.se', password: 'demo1234' } })).status).toBe(
      401,
    );
    const [entry] = (await auditEntries(groupId)).filter((e) => e.action === 'group.add_user');
    expect(entry).toEqual({
      action: 'group.add_user',
      actor_user_id: adminUserId,
      details: { userId: answer.user.id, role: 'seller', previousRole: null, isNewUser: true },
    });
  });

  it('adds an existing user without a name, then changes their role, never their name or password', async () => {
    const mailsBefore = server.mails().length;
    const added = await ok<TAddGroupUserResponse>(await addUser({ email: 'NOAH@demo.se', role: 'seller' }));
    expect(added.user).toMatchObject({ email: 'noah@demo.se', role: 'seller', is_new_user: false });
    const promoted = await ok<TAddGroupUserResponse>(await addUser({ email: 'noah@demo.se', role: 'admin', full_name: 'Annat Namn' }));
    expect(promoted.user).toMatchObject({ id: added.user.id, role: 'admin', is_new_user: false });
    const [row] = await sqlRows<{ role: string; full_name: string; memberships: string }>(
      server.app.db,
      sql`select m.role, u.full_name, (select count(*) from memberships where user_id = u.id and group_id = ${groupId}) as memberships
          from memberships m join users u on u.id = m.user_id where u.id = ${added.user.id} and m.group_id = ${groupId}`,
    );
    expect(row).toEqual({ role: 'admin', full_name: 'Noah Persson', memberships: expect.anything() });
    expect(Number(row!.memberships)).toBe(1);
    expect(await server.login('noah@demo.se', 'demo1234')).toBeTruthy();
    expect(server.mails()).toHaveLength(mailsBefore);
    const detail = await ok<TAdminGroupDetailResponse>(await call('GET', `/api/admin/group/${groupId}`));
    expect(detail.sellers.find((seller) => seller.user_id === added.user.id)).toMatchObject({
      role: 'admin',
      is_admin: true,
      total_sales: 0,
    });
    const entries = (await auditEntries(groupId)).filter((e) => e.action === 'group.add_user' && e.details?.userId === added.user.id);
    expect(entries.map((entry) => [entry.details?.previousRole, entry.details?.role])).toEqual([
      [null, 'seller'],
      ['seller', 'admin'],
    ]);
  });
});

describe('GET /api/admin/group/{id}/export', () => {
  let groupId: number;
  beforeAll(async () => {
    groupId = await groupIdByCode(server.app.db, 'BJK6B2');
    // A name that would be a formula in Excel, and a refund: both must come out as the text and number they are.
    await server.app.db.execute(sql`update users set full_name = '=HYPERLINK("http://ond.example","Klicka")' where email = 'noah@demo.se'`);
    await server.app.db.execute(sql`update users set full_name = 'Karin; "Lärare"' where email = 'larare@bjorkskolan.se'`);
    const noah = await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2');
    await insertOrder(server.app.db, {
      membership: noah,
      orderedAt: new Date('2026-01-15T12:34:56.789Z'),
      state: 'partially_refunded',
      orderName: '-1+1',
      lines: [
        { amountOre: 29800, quantity: 2, title: '@SUM(A1)' },
        { amountOre: -14950, quantity: -1, kind: 'refund', title: '@SUM(A1)' },
      ],
    });
  });

  const download = async (id: number) => {
    const response = await call('GET', `/api/admin/group/${id}/export`);
    expect(response.status).toBe(200);
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const decimalComma = (cell: string) => {
    expect(cell).toMatch(/^-?\d+,\d{2}$/);
    return Math.round(Number(cell.replace(',', '.')) * 100);
  };

  it('is a Swedish-Excel CSV named after the group id: BOM, semicolons, decimal commas, Stockholm times', async () => {
    const { response, bytes } = await download(groupId);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename=grupp-${groupId}.csv`);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse(bytes, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([
      'Säljare',
      'Roll',
      'Order',
      'Orderdatum',
      'Radtyp',
      'Produkt',
      'Antal',
      'Belopp inkl. moms (kr)',
      'Provision (kr)',
      'Bokförd',
      'Avräkning',
    ]);
    for (const row of rows) {
      expect(row['Orderdatum']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      decimalComma(row['Belopp inkl. moms (kr)']!);
    }
    // 12:34 UTC in January is 13:34 in Stockholm.
    const refund = rows.find((row) => row['Radtyp'] === 'Återbetalning')!;
    expect(refund).toMatchObject({
      Orderdatum: '2026-01-15 13:34',
      'Belopp inkl. moms (kr)': '-149,50',
      'Provision (kr)': '-37,38',
      Antal: '-1',
    });
  });

  it('has one row per order line, and its sums match the group detail and the order lines table', async () => {
    const { bytes } = await download(groupId);
    const rows = parse(bytes, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
    const [lines] = await sqlRows<{ count: string }>(
      server.app.db,
      sql`select count(*) from order_lines l join orders o on o.id = l.order_id where o.group_id = ${groupId}`,
    );
    expect(rows).toHaveLength(Number(lines!.count));
    const detail = await ok<TAdminGroupDetailResponse>(await call('GET', `/api/admin/group/${groupId}`));
    const salesOre = rows.reduce((sum, row) => sum + decimalComma(row['Belopp inkl. moms (kr)']!), 0);
    const commissionOre = rows.reduce((sum, row) => sum + decimalComma(row['Provision (kr)']!), 0);
    expect(salesOre / 100).toBe(detail.totals.total_sales);
    expect(commissionOre / 100).toBe(detail.totals.total_commission);
    const figures = await figuresFromOrders(server.app.db, sql`group_id = ${groupId}`);
    expect(salesOre).toBe(figures.sales_ore);
    expect(new Set(rows.map((row) => row['Order'])).size).toBe(
      Number((await sqlRows<{ count: string }>(server.app.db, sql`select count(*) from orders where group_id = ${groupId}`))[0]!.count),
    );
    // Rows follow the order date.
    const dates = rows.map((row) => row['Orderdatum']!);
    expect(dates).toEqual([...dates].sort());
    // Each seller's rows add up to that seller's figure in the detail.
    for (const seller of detail.sellers) {
      const own = rows.filter((row) => row['Säljare'] === seller.full_name || row['Säljare'] === `'${seller.full_name}`);
      expect(own.reduce((sum, row) => sum + decimalComma(row['Belopp inkl. moms (kr)']!), 0) / 100, seller.full_name).toBe(
        seller.total_sales,
      );
    }
  });

  it('neutralises cells that Excel would run as formulas, and quotes separators', async () => {
    const { bytes } = await download(groupId);
    const rows = parse(bytes, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
    const names = new Set(rows.map((row) => row['Säljare']));
    expect(names).toContain(`'=HYPERLINK("http://ond.example","Klicka")`);
    expect(names).not.toContain(`=HYPERLINK("http://ond.example","Klicka")`);
    expect(names).toContain('Karin; "Lärare"');
    const injected = rows.filter((row) => row['Order'] === "'-1+1");
    expect(injected).toHaveLength(2);
    expect(injected.every((row) => row['Produkt'] === "'@SUM(A1)")).toBe(true);
    // No cell at all starts with a formula character unless it is a negative number.
    for (const row of rows) {
      for (const cell of Object.values(row)) {
        if (/^[=+\-@\t\r]/.test(cell)) expect(cell).toMatch(/^-\d+(,\d{2})?$/);
      }
    }
  });

  it('answers 404 for an unknown group, and records each export in the audit log', async () => {
    await refused(await call('GET', '/api/admin/group/999999/export'), 404, 'Grupp hittades inte');
    const exports = (await auditEntries(groupId)).filter((entry) => entry.action === 'group.export');
    expect(exports.length).toBeGreaterThanOrEqual(3);
  });
});
