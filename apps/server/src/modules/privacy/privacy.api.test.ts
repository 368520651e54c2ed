/**
 * Issue 22, export and erasure: 'Ladda ner mina uppgifter' holds everything stored about the
 * person; 'Radera mitt konto' and the superadmin's erasure leave a tombstone named 'Borttagen
 * säljare' everywhere a name was shown, and no group's or payout's totals move.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TAccountExport,
  TAdminGroupDetailResponse,
  TAdminSellerListResponse,
  TCreateGroupResponse,
  TGroupTotalsResponse,
  TLeaderboardResponse,
  TPayout,
} from '@saljportalen/contract';
import { insertOrder, sqlRows } from '../../../test/admin-fixtures.js';
import { pdfText } from '../../../test/pdf-tools.js';
import { sendShopifyWebhook, swedishOrder } from '../../../test/shopify-webhooks.js';
import { startTestServer, type TestServer, fullLeaderboardItems } from '../../../test/test-server.js';
import { erasedEmail } from './erase-account.js';

const PASSWORD = 'hemligt-losen-1';
const ERASED = 'Borttagen säljare';

let server: TestServer;
let superToken: string;

const rows = <T>(query: ReturnType<typeof sql>) => sqlRows<T>(server.app.db, query);

async function json<T>(method: string, path: string, token: string | undefined, body?: unknown): Promise<T> {
  const response = await server.request(method, path, { token, body });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A visit through a personal link, its redirect to the shop not followed. */
const visit = async (code: string) => (await fetch(`${server.url}/s/${code}`, { redirect: 'manual' })).status;

async function register(fullName: string, email: string, groupCode: string) {
  const token = (
    await json<{ token: string }>('POST', '/api/auth/register-seller', undefined, {
      full_name: fullName,
      email,
      password: PASSWORD,
      group_code: groupCode,
    })
  ).token;
  const [row] = await rows<{ user_id: number; membership_id: number; link_code: string }>(sql`
    select u.id as user_id, m.id as membership_id, m.link_code from users u join memberships m on m.user_id = u.id
    where u.email = ${email}`);
  return { token, userId: Number(row!.user_id), membershipId: Number(row!.membership_id), linkCode: row!.link_code };
}

/** What an erasure must not change: every figure of the group and of its payout. */
async function groupFigures(groupId: number, adminToken: string, payoutId: number) {
  const totals = await json<TGroupTotalsResponse>('GET', '/api/group/totals', adminToken);
  const detail = await json<TAdminGroupDetailResponse>('GET', `/api/admin/group/${groupId}`, superToken);
  const payouts = await json<TPayout[]>('GET', `/api/admin/payouts?group_id=${groupId}`, superToken);
  const [sums] = await rows<{ sales: string; commission: string; lines: string }>(sql`
    select sum(amount_ore)::text as sales, sum(commission_ore)::text as commission, count(*)::text as lines
    from order_lines where group_id = ${groupId}`);
  return { totals: totals.totals, detail: detail.totals, payout: payouts.find((payout) => payout.id === payoutId), sums };
}

async function namesShown(groupId: number, adminToken: string, payoutId: number) {
  const leaderboard = await json<TLeaderboardResponse>('GET', '/api/group/leaderboard-mine', adminToken);
  const csv = await (await server.request('GET', `/api/admin/group/${groupId}/export`, { token: superToken })).text();
  const sellers = await json<TAdminSellerListResponse>('GET', `/api/admin/sellers?group_id=${groupId}`, superToken);
  const detail = await json<TAdminGroupDetailResponse>('GET', `/api/admin/group/${groupId}`, superToken);
  const pdf = await server.request('GET', `/api/admin/payouts/${payoutId}/export.pdf`, { token: superToken });
  expect(pdf.status).toBe(200);
  return {
    leaderboard: fullLeaderboardItems(leaderboard),
    csv,
    sellers: sellers.items.map((row) => row.full_name),
    detail: detail.sellers.map((row) => row.full_name),
    pdf: pdfText(Buffer.from(await pdf.arrayBuffer())).replace(/[\u00a0\u202f]/g, ' '),
  };
}

let group: { id: number; code: string };
let adminToken: string;
let adminUserId: number;
let astrid: Awaited<ReturnType<typeof register>>;
let bertil: Awaited<ReturnType<typeof register>>;
let payoutId: number;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  superToken = await server.login('admin@saljportalen.se');
  const created = await json<TCreateGroupResponse>('POST', '/api/admin/groups/create', superToken, {
    group_name: 'Klass 5A Raderskolan',
    admin: { email: 'greta@raderskolan.se', password: PASSWORD, full_name: 'Greta Gruppadmin' },
  });
  group = { id: created.group.id, code: created.group.group_code };
  adminUserId = created.admin!.user_id;
  adminToken = await server.login('greta@raderskolan.se', PASSWORD);
  astrid = await register('Astrid Ärlig', 'astrid.arlig@example.se', group.code);
  bertil = await register('Bertil Kvar', 'bertil.kvar@example.se', group.code);
  for (const [seller, amounts] of [
    [astrid, [14_900, 6_500]],
    [bertil, [9_900]],
  ] as const) {
    await insertOrder(server.app.db, {
      membership: { id: seller.membershipId, groupId: group.id },
      orderedAt: new Date('2025-10-05T10:00:00Z'),
      lines: amounts.map((amountOre) => ({ amountOre, title: 'Svensk honung' })),
    });
  }
  // A sale after the payout's period: still Astrid's, not yet settled.
  await insertOrder(server.app.db, {
    membership: { id: astrid.membershipId, groupId: group.id },
    orderedAt: new Date('2025-11-12T10:00:00Z'),
    lines: [{ amountOre: 4_900, title: 'Tvål med havtorn' }],
  });
  payoutId = (
    await json<TPayout>('POST', '/api/admin/payouts', superToken, {
      group_id: group.id,
      from: '2025-10-01',
      to: '2025-10-31',
      auto_archive: false,
    })
  ).id;
  for (let click = 0; click < 3; click++) {
    expect(await visit(astrid.linkCode)).toBe(200);
  }
  // Astrid is a child whose guardian was asked, and a guardian of nobody.
  await server.app.db.execute(sql`
    insert into guardian_links (child_user_id, guardian_email, approved_at) values (${astrid.userId}, 'mamma.arlig@example.se', now())`);
  // A person placed in a group by the superadmin is named in the audit log.
  await json('POST', `/api/admin/groups/${group.id}/add-user`, superToken, { email: 'astrid.arlig@example.se', role: 'seller' });
});
afterAll(() => server.close());

describe('GET /api/account/export', () => {
  it('downloads everything stored about the person as a JSON file, without the password hash or any buyer', async () => {
    const response = await server.request('GET', '/api/account/export', { token: astrid.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename=mina-uppgifter-\d{4}-\d{2}-\d{2}\.json$/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    const data = JSON.parse(text) as TAccountExport;

    expect(data.account).toMatchObject({
      id: astrid.userId,
      full_name: 'Astrid Ärlig',
      email: 'astrid.arlig@example.se',
      is_superadmin: false,
    });
    expect(text).not.toMatch(/argon2|password/i);
    expect(data.memberships).toEqual([
      expect.objectContaining({
        membership_id: astrid.membershipId,
        group_id: group.id,
        group_name: 'Klass 5A Raderskolan',
        role: 'seller',
        link_code: astrid.linkCode,
        personal_link: `http://localhost:3000/s/${astrid.linkCode}`,
      }),
    ]);
    // Her orders with their lines and amounts; Bertil's are not hers.
    expect(data.orders.map((order) => order.subtotal_incl_vat)).toEqual([214, 49]);
    expect(data.orders.flatMap((order) => order.lines.map((line) => line.amount))).toEqual([149, 65, 49]);
    expect(data.orders.every((order) => order.membership_id === astrid.membershipId)).toBe(true);
    const [today] = await rows<{ day: string }>(sql`select to_char(now() at time zone 'Europe/Stockholm', 'YYYY-MM-DD') as day`);
    expect(data.link_clicks_per_day).toEqual([{ membership_id: astrid.membershipId, day: today!.day, clicks: 3 }]);
    expect(data.payouts).toEqual([
      expect.objectContaining({ payout_id: payoutId, group_id: group.id, period_from: '2025-10-01', own_lines_count: 2, own_sales: 214 }),
    ]);
    expect(data.audit_entries.map((entry) => entry.action)).toContain('group.add_user');
    expect(data.guardian_links.as_child).toEqual([expect.objectContaining({ guardian_email: 'mamma.arlig@example.se' })]);
    expect(data.guardian_links.as_guardian).toEqual([]);
  });

  it('is for a signed-in person only', async () => {
    expect((await server.request('GET', '/api/account/export')).status).toBe(401);
  });
});

describe('POST /api/account/delete', () => {
  it('refuses a wrong password in Swedish and changes nothing', async () => {
    const response = await server.request('POST', '/api/account/delete', { token: astrid.token, body: { password: 'fel-losenord' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: 'VALIDATION', message: 'Lösenordet är fel', details: [{ field: 'password', message: 'Lösenordet är fel' }] },
    });
    const missing = await server.request('POST', '/api/account/delete', { token: astrid.token, body: {} });
    expect(missing.status).toBe(400);
    const [user] = await rows<{ full_name: string; erased_at: Date | null }>(
      sql`select full_name, erased_at from users where id = ${astrid.userId}`,
    );
    expect(user).toEqual({ full_name: 'Astrid Ärlig', erased_at: null });
  });

  it('erases the account: Borttagen säljare where the books need a name, off the leaderboard, the same totals, the session and the link gone', async () => {
    const before = await groupFigures(group.id, adminToken, payoutId);
    const namesBefore = await namesShown(group.id, adminToken, payoutId);
    expect(namesBefore.leaderboard.map((item) => item.seller_name)).toContain('Astrid Ärlig');
    expect(namesBefore.pdf).toContain('Astrid Ärlig');
    const [{ version: versionBefore }] = (await rows<{ version: string }>(
      sql`select version::text from group_figures where group_id = ${group.id}`,
    )) as [{ version: string }];

    const response = await server.request('POST', '/api/account/delete', { token: astrid.token, body: { password: PASSWORD } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.get('set-cookie')).toMatch(/sp_refresh=;.*Path=\/api\/auth/);

    // The session ended and the old sign-in no longer works.
    expect((await server.request('GET', '/api/account/profile', { token: astrid.token })).status).toBe(401);
    const login = await server.request('POST', '/api/auth/login', { body: { email: 'astrid.arlig@example.se', password: PASSWORD } });
    expect(login.status).toBe(401);

    // The tombstone: no personal field left, nothing that points at her but the bookkeeping.
    const [user] = await rows<Record<string, unknown>>(sql`
      select full_name, email, phone, alias, password_hash, active_group_id, erased_at is not null as erased,
        (select count(*)::int from refresh_tokens where user_id = u.id) as refresh_tokens,
        (select count(*)::int from guardian_links where child_user_id = u.id or guardian_user_id = u.id) as guardian_links,
        (select count(*)::int from link_clicks_per_day c join memberships m on m.id = c.membership_id where m.user_id = u.id) as clicks
      from users u where id = ${astrid.userId}`);
    expect(user).toMatchObject({
      full_name: ERASED,
      email: erasedEmail(astrid.userId),
      phone: null,
      alias: null,
      active_group_id: null,
      erased: true,
      refresh_tokens: 0,
      guardian_links: 0,
      clicks: 0,
    });
    expect(String(user!.password_hash)).not.toMatch(/^\$argon2/);

    // The personal link is unknown now, and the leaderboard cache has a new version.
    expect(await visit(astrid.linkCode)).toBe(404);
    const [{ version: versionAfter }] = (await rows<{ version: string }>(
      sql`select version::text from group_figures where group_id = ${group.id}`,
    )) as [{ version: string }];
    expect(BigInt(versionAfter)).toBeGreaterThan(BigInt(versionBefore));

    // Same figures, the name gone from every place it was shown.
    expect(await groupFigures(group.id, adminToken, payoutId)).toEqual(before);
    const names = await namesShown(group.id, adminToken, payoutId);
    // No row on the leaderboard (issue 33 point 2): her sales stay in the class's totals above.
    expect(names.leaderboard.find((item) => item.user_id === astrid.userId)).toBeUndefined();
    expect(names.leaderboard.map((item) => item.seller_name)).not.toContain(ERASED);
    expect(names.leaderboard).toHaveLength(namesBefore.leaderboard.length - 1);
    // Nor on the teacher's class list: nothing of her is left to mark.
    const classList = await json<{ items: { user_id: number; full_name: string }[] }>(
      'GET',
      `/api/group/members?group_id=${group.id}`,
      adminToken,
    );
    expect(classList.items.map((item) => item.user_id)).not.toContain(astrid.userId);
    expect(classList.items.map((item) => item.full_name)).toContain('Bertil Kvar');
    for (const place of [names.csv, names.pdf, JSON.stringify(names.sellers), JSON.stringify(names.detail)]) {
      expect(place).toContain(ERASED);
      expect(place).not.toContain('Astrid');
      expect(place).not.toContain('astrid.arlig');
    }
    expect(names.pdf).toContain('Bertil Kvar');

    // The audit entry says who erased what and why, and nothing about the person.
    const [entry] = await rows<{ actor_user_id: number; target_id: string; details: unknown }>(sql`
      select actor_user_id, target_id, details from audit_entries where action = 'account.erase' and target_id = ${String(astrid.userId)}`);
    expect(entry).toMatchObject({ actor_user_id: astrid.userId, target_id: String(astrid.userId) });
    expect(entry!.details).toMatchObject({ reason: 'self' });
    expect(JSON.stringify(entry)).not.toMatch(/Astrid|astrid\.arlig/);
    // The Händelselogg names her 'Borttagen användare', never by the tombstone's address.
    const audit = await json<{ items: { action: string; actor: { id: number; full_name: string; email: string } | null }[] }>(
      'GET',
      '/api/admin/audit?action=account.erase',
      superToken,
    );
    expect(audit.items.find((item) => item.actor?.id === astrid.userId)?.actor).toEqual({
      id: astrid.userId,
      full_name: 'Borttagen användare',
      email: '',
    });
    expect(JSON.stringify(audit)).not.toContain('raderad.invalid');
  });

  it('keeps an order that still arrives with the erased link unattributed', async () => {
    const order = swedishOrder({ id: 7_990_000_000_123, refCode: astrid.linkCode, createdAt: '2025-11-20T10:00:00+01:00' });
    expect((await sendShopifyWebhook(server.url, 'orders/create', order)).status).toBe(200);
    const [stored] = await rows<{ membership_id: number | null }>(
      sql`select membership_id from orders where shopify_order_id = 7990000000123`,
    );
    expect(stored).toEqual({ membership_id: null });
  });

  it('lets the real address register again, as a new account', async () => {
    const again = await register('Astrid Ärlig', 'astrid.arlig@example.se', group.code);
    expect(again.userId).not.toBe(astrid.userId);
    expect(again.linkCode).not.toBe(astrid.linkCode);
  });

  it("refuses a group's last admin, in Swedish, and a superadmin", async () => {
    const response = await server.request('POST', '/api/account/delete', { token: adminToken, body: { password: PASSWORD } });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'Klass 5A Raderskolan har ingen annan administratör. Gruppen behöver en annan administratör innan kontot kan raderas.',
    );
    const superadmin = await server.request('POST', '/api/account/delete', { token: superToken, body: { password: 'demo1234' } });
    expect(superadmin.status).toBe(409);
  });
});

describe('POST /api/admin/users/:userId/erase', () => {
  it('erases a person the same way, audit-logged as the superadmin', async () => {
    const before = await groupFigures(group.id, adminToken, payoutId);
    const response = await server.request('POST', `/api/admin/users/${bertil.userId}/erase`, { token: superToken });
    expect(response.status).toBe(200);
    expect((await server.request('GET', '/api/account/profile', { token: bertil.token })).status).toBe(401);
    expect(await groupFigures(group.id, adminToken, payoutId)).toEqual(before);
    const names = await namesShown(group.id, adminToken, payoutId);
    expect(names.leaderboard.filter((item) => item.seller_name === ERASED || item.user_id === bertil.userId)).toEqual([]);
    expect(names.pdf).not.toContain('Bertil');
    const [superadmin] = await rows<{ id: number }>(sql`select id from users where email = 'admin@saljportalen.se'`);
    const [entry] = await rows<{ actor_user_id: number; details: unknown }>(sql`
      select actor_user_id, details from audit_entries where action = 'account.erase' and target_id = ${String(bertil.userId)}`);
    expect(entry).toEqual({ actor_user_id: superadmin!.id, details: { reason: 'superadmin', memberships: 1 } });
  });

  it('answers an account already erased, a last admin and an unknown person with a Swedish 4xx', async () => {
    const again = await server.request('POST', `/api/admin/users/${bertil.userId}/erase`, { token: superToken });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe('Kontot är redan raderat');
    const lastAdmin = await server.request('POST', `/api/admin/users/${adminUserId}/erase`, { token: superToken });
    expect(lastAdmin.status).toBe(409);
    expect(((await lastAdmin.json()) as { error: { message: string } }).error.message).toContain('behöver en annan administratör');
    expect((await server.request('POST', '/api/admin/users/2000000000/erase', { token: superToken })).status).toBe(404);
  });

  it('erases an admin once the group has another one', async () => {
    await json('POST', `/api/admin/groups/${group.id}/add-user`, superToken, {
      email: 'larare@bjorkskolan.se',
      role: 'admin',
      full_name: 'Karin Lärare',
    });
    expect((await server.request('POST', `/api/admin/users/${adminUserId}/erase`, { token: superToken })).status).toBe(200);
  });
});

describe('the export limit', () => {
  it('is counted per person, with a Swedish 429', async () => {
    const limited = await startTestServer({ seed: true, env: { RATE_LIMITS: '1' } });
    try {
      const elsa = await limited.login('elsa@demo.se');
      const noah = await limited.login('noah@demo.se');
      for (let download = 0; download < 5; download++) {
        expect((await limited.request('GET', '/api/account/export', { token: elsa })).status).toBe(200);
      }
      const refused = await limited.request('GET', '/api/account/export', { token: elsa });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
        /^Du har laddat ner dina uppgifter många gånger den senaste timmen\. Vänta \d+ minuter? och försök igen\.$/,
      );
      // Another person from the same address is not held up.
      expect((await limited.request('GET', '/api/account/export', { token: noah })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
