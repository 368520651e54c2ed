/**
 * Issue 32 points 1–2 over HTTP on the seeded demo data: the page before the shop in each of its
 * states, and the class link, whose orders are the class's and no pupil's: in the class total,
 * the payout and its PDF, on no pupil, and not among the unattributed.
 */
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TClassLinkResponse, TCreatePayoutResponse, TClassOrdersResponse, TGroupTotalsResponse } from '@saljportalen/contract';
import { groupIdByCode, sqlRows } from '../../../test/admin-fixtures.js';
import { pdfQrCodes, pdfText } from '../../../test/pdf-tools.js';
import { sendShopifyWebhook, swedishOrder } from '../../../test/shopify-webhooks.js';
import { eventually, startTestServer, type TestServer } from '../../../test/test-server.js';
import { addCalendarDays, stockholmDate } from '../../lib/dates.js';
import { eraseAccount } from '../privacy/erase-account.js';

let server: TestServer;
let demoGroup: number;
let elsa: { code: string; membershipId: number };
const SHOP = 'https://butik.example.se';
const today = stockholmDate(new Date());

const linkCodeOf = async (email: string) => {
  const [row] = await sqlRows<{ id: number; link_code: string }>(
    server.app.db,
    sql`select m.id, m.link_code from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
         where u.email = ${email} and g.code = 'BJK6B2'`,
  );
  return { code: row!.link_code, membershipId: row!.id };
};
const clicksOf = async (membershipId: number) =>
  (
    await sqlRows<{ n: number }>(
      server.app.db,
      sql`select coalesce(sum(clicks), 0)::int as n from link_clicks_per_day where membership_id = ${membershipId}`,
    )
  )[0]!.n;

async function page(path: string, method = 'GET') {
  const response = await fetch(`${server.url}${path}`, { method, redirect: 'manual' });
  return { response, status: response.status, html: await response.text() };
}
const setGroup = (id: number, columns: ReturnType<typeof sql>) => server.app.db.execute(sql`update groups set ${columns} where id = ${id}`);

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  demoGroup = await groupIdByCode(server.app.db, 'BJK6B2');
  elsa = await linkCodeOf('elsa@demo.se');
});
afterAll(() => server.close());

describe('the page before the shop (/s/{code})', () => {
  it('says whom the buyer supports, the class goal and days, the teacher’s text, and leads to the shop with the code', async () => {
    await setGroup(
      demoGroup,
      sql`goal_ore = 1000000, goal_purpose = 'Lägerskolan i Sälen', goal_ends_on = ${addCalendarDays(today, 30)},
          campaign_starts_on = ${addCalendarDays(today, -3)}, campaign_ends_on = ${addCalendarDays(today, 13)},
          class_greeting = ${'Tack för att ni stöttar oss!\nVi åker till fjällen i mars.'}`,
    );
    const before = await clicksOf(elsa.membershipId);
    const { response, status, html } = await page(`/s/${elsa.code}`);
    expect(status).toBe(200);
    expect(html).toContain('<h1>Du stöttar Elsa i Klass 6B Björkskolan</h1>');
    expect(html).toContain('Klassens mål: Lägerskolan i Sälen');
    expect(html).toMatch(/insamlat av 10\u00a0000\u00a0kr \(\d+ %\)/);
    expect(html).toContain('14 dagar kvar');
    expect(html).toContain('Tack för att ni stöttar oss!\nVi åker till fjällen i mars.');
    expect(html).toContain(`<a class="shop" href="${SHOP}/?ref=${elsa.code}" rel="noreferrer">Till butiken</a>`);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; connect-src 'self'; style-src 'sha256-[^']+'; base-uri 'none'/,
    );
    expect(await clicksOf(elsa.membershipId)).toBe(before + 1);
  });

  it('shows no pupil’s amount, no classmate and no leaderboard, and weighs far below 15 KB gzip', async () => {
    const { html } = await page(`/s/${elsa.code}`);
    const classmates = await sqlRows<{ full_name: string }>(
      server.app.db,
      sql`select u.full_name from memberships m join users u on u.id = m.user_id where m.group_id = ${demoGroup} and u.email <> 'elsa@demo.se'`,
    );
    for (const { full_name } of classmates) expect(html).not.toContain(full_name.split(' ')[0]!);
    const [own] = await sqlRows<{ sales: number; commission: number }>(
      server.app.db,
      sql`select sales_ore::int as sales, commission_ore::int as commission from membership_figures where membership_id = ${elsa.membershipId}`,
    );
    expect(own!.sales).toBeGreaterThan(0);
    const spoken = (ore: number) =>
      new Intl.NumberFormat('sv-SE', { style: 'currency', currency: 'SEK', maximumFractionDigits: 0 }).format(ore / 100);
    expect(html).not.toContain(spoken(own!.sales));
    expect(html).not.toContain(spoken(own!.commission));
    expect(html.toLowerCase()).not.toContain('topplista');
    expect(gzipSync(html).length).toBeLessThan(15 * 1024);
  });

  it('takes a code in lower case, and answers HEAD (a link preview) without counting it', async () => {
    const before = await clicksOf(elsa.membershipId);
    expect((await page(`/s/${elsa.code.toLowerCase()}`)).html).toContain(`?ref=${elsa.code}"`);
    expect((await page(`/s/${elsa.code}`, 'HEAD')).status).toBe(200);
    expect(await clicksOf(elsa.membershipId)).toBe(before + 1);
  });

  it('leads nowhere before the campaign, after it and in an archived group, and counts no visit', async () => {
    const before = await clicksOf(elsa.membershipId);
    await setGroup(demoGroup, sql`campaign_starts_on = ${addCalendarDays(today, 2)}, campaign_ends_on = ${addCalendarDays(today, 20)}`);
    const upcoming = await page(`/s/${elsa.code}`);
    expect(upcoming.html).toContain('<h1>Försäljningen startar');
    await setGroup(demoGroup, sql`campaign_starts_on = ${addCalendarDays(today, -20)}, campaign_ends_on = ${addCalendarDays(today, -1)}`);
    const ended = await page(`/s/${elsa.code}`);
    expect(ended.html).toContain('<h1>Försäljningen är avslutad – tack!</h1>');
    await setGroup(demoGroup, sql`campaign_starts_on = null, campaign_ends_on = null, archived = true`);
    const archived = await page(`/s/${elsa.code}`);
    expect(archived.html).toContain('<h1>Försäljningen är avslutad – tack!</h1>');
    await setGroup(demoGroup, sql`archived = false`);
    for (const { status, html } of [upcoming, ended, archived]) {
      expect(status).toBe(200);
      expect(html).not.toContain('href=');
      expect(html).not.toContain('Elsa');
    }
    expect(await clicksOf(elsa.membershipId)).toBe(before);
  });

  it('says kindly that a pupil waits for a guardian, that an erased pupil’s link is gone, and that a code is unknown', async () => {
    const noah = await linkCodeOf('noah@demo.se');
    await server.app.db.execute(sql`update users set guardian_consent = 'pending' where email = 'noah@demo.se'`);
    const pending = await page(`/s/${noah.code}`);
    await server.app.db.execute(sql`update users set guardian_consent = null where email = 'noah@demo.se'`);
    expect(pending.status).toBe(200);
    expect(pending.html).toContain('<h1>Länken är inte aktiv än</h1>');

    const [other] = await sqlRows<{ email: string }>(
      server.app.db,
      sql`select u.email from memberships m join users u on u.id = m.user_id
           where m.group_id = ${demoGroup} and m.role = 'seller' and u.email not in ('elsa@demo.se', 'noah@demo.se') and u.email is not null
           order by m.id limit 1`,
    );
    const leaving = await linkCodeOf(other!.email);
    const [user] = await sqlRows<{ user_id: number }>(
      server.app.db,
      sql`select user_id from memberships where id = ${leaving.membershipId}`,
    );
    await server.app.db.transaction((tx) => eraseAccount(tx, user!.user_id, { actorUserId: null, reason: 'superadmin' }));
    const erased = await page(`/s/${leaving.code.toLowerCase()}`);
    expect(erased.status).toBe(404);
    expect(erased.html).toContain('<h1>Länken används inte längre</h1>');
    // Only the code's hash is kept.
    expect(JSON.stringify(await sqlRows(server.app.db, sql`select * from retired_link_codes`))).not.toContain(leaving.code);

    for (const code of ['FINNSINTE', 'x%3Cscript%3E', '%20']) {
      const unknown = await page(`/s/${code}`);
      expect(unknown.status).toBe(404);
      expect(unknown.html).toContain('<h1>Länken hittades inte</h1>');
    }
    for (const { html } of [pending, erased]) expect(html).not.toContain('href=');
  });

  it('names a pupil with protected personal data by alias only, and not their class', async () => {
    const ida = await linkCodeOf('noah@demo.se');
    await server.app.db.execute(sql`update memberships set protected_identity = true where id = ${ida.membershipId}`);
    await server.app.db.execute(sql`update users set alias = 'Stjärnan' where email = 'noah@demo.se'`);
    const { html } = await page(`/s/${ida.code}`);
    await server.app.db.execute(sql`update memberships set protected_identity = false where id = ${ida.membershipId}`);
    expect(html).toContain('<h1>Du stöttar Stjärnan</h1>');
    expect(html).not.toContain('Björkskolan');
    expect(html).not.toContain('Noah');
  });
});

describe('the class link (/k/{code})', () => {
  let group: number;
  let teacher: string;
  let classLink: string;
  let code: string;

  beforeAll(async () => {
    // A class of its own with its teacher and one pupil, so its sums are this test's alone.
    const [created] = await sqlRows<{ id: number; class_link_code: string }>(
      server.app.db,
      sql`insert into groups (name, code) values ('Klass 4C Lönnskolan', 'LON4C2') returning id, class_link_code`,
    );
    group = created!.id;
    const users = await sqlRows<{ id: number }>(
      server.app.db,
      sql`insert into users (email, password_hash, full_name, active_group_id)
          select e, password_hash, n, ${group} from users, (values ('larare@lonn.se', 'Lena Lärare'), ('pia@lonn.se', 'Pia Elev')) as v(e, n)
           where email = 'larare@bjorkskolan.se' returning id`,
    );
    await server.app.db.execute(sql`insert into memberships (user_id, group_id, role, link_code) values
      (${users[0]!.id}, ${group}, 'admin', 'LONNLARARE'), (${users[1]!.id}, ${group}, 'seller', 'LONNPIA')`);
    teacher = await server.login('larare@lonn.se');
    const answer = await server.request('GET', `/api/group/class-link?group_id=${group}`, { token: teacher });
    expect(answer.status).toBe(200);
    classLink = ((await answer.json()) as TClassLinkResponse).class_link;
    code = created!.class_link_code;
    expect(classLink).toBe(`${server.app.config.publicUrl}/k/${code}`);
    expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTWXYZ]{8}$/);
  });

  it('is the class’s page: the class instead of a pupil, and the shop gets the class’s ref', async () => {
    const { status, html } = await page(`/k/${code.toLowerCase()}`);
    expect(status).toBe(200);
    expect(html).toContain('<h1>Du stöttar Klass 4C Lönnskolan</h1>');
    expect(html).toContain(`href="${SHOP}/?ref=KLASS-${code}"`);
    expect(html).not.toContain('Pia');
    expect((await page('/k/FINNSINTE')).status).toBe(404);
    // The group code lets a pupil join; the class link's code is another, so a buyer cannot.
    expect((await page('/k/LON4C2')).status).toBe(404);
  });

  it('is for the group’s admin and a superadmin only', async () => {
    const pupil = await server.login('pia@lonn.se');
    const other = await server.login('larare@bjorkskolan.se');
    for (const token of [pupil, other]) {
      expect((await server.request('GET', `/api/group/class-link?group_id=${group}`, { token })).status).toBe(403);
      expect((await server.request('GET', `/api/group/poster.pdf?group_id=${group}`, { token })).status).toBe(403);
      expect((await server.request('POST', '/api/group/buyer-greeting', { token, body: { group_id: group, text: 'Hej' } })).status).toBe(
        403,
      );
    }
    const superadmin = await server.login('admin@saljportalen.se');
    expect((await server.request('GET', `/api/group/class-link?group_id=${group}`, { token: superadmin })).status).toBe(200);
    expect((await server.request('GET', `/api/group/class-link?group_id=${group}`)).status).toBe(401);
  });

  it('takes the teacher’s text for buyers, refuses a web address or too long a text, and an empty one takes it away', async () => {
    const set = (text: string) => server.request('POST', '/api/group/buyer-greeting', { token: teacher, body: { group_id: group, text } });
    const saved = await set('  Vi samlar till en klassresa.\r\n\r\n\r\nTack!  ');
    expect(await saved.json()).toEqual({ ok: true, buyer_greeting: 'Vi samlar till en klassresa.\n\nTack!' });
    expect((await page(`/k/${code}`)).html).toContain('Vi samlar till en klassresa.\n\nTack!');
    const link = await set('Läs mer på www.exempel.se');
    expect(link.status).toBe(400);
    expect(JSON.stringify(await link.json())).toContain('Texten till köparna får inte innehålla en webbadress');
    const long = await set('x'.repeat(301));
    expect(long.status).toBe(400);
    expect(JSON.stringify(await long.json())).toContain('Texten får vara högst 300 tecken');
    expect(await (await set('')).json()).toEqual({ ok: true, buyer_greeting: null });
    expect((await page(`/k/${code}`)).html).not.toContain('class="greeting"');
  });

  it('prints a poster with the class, an appeal and the class link’s QR code', async () => {
    await setGroup(
      group,
      sql`goal_ore = 500000, goal_purpose = 'en klassresa till Kolmården', goal_ends_on = ${addCalendarDays(today, 40)}`,
    );
    const response = await server.request('GET', `/api/group/poster.pdf?group_id=${group}`, { token: teacher });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await response.arrayBuffer());
    const text = pdfText(pdf).replace(/\s+/g, ' ');
    expect(text).toContain('Stötta Klass 4C Lönnskolan!');
    expect(text).toContain('Vi samlar till en klassresa till Kolmården');
    expect(text).toContain('Vårt mål: 5 000 kr');
    expect(text).toContain(classLink);
    expect(pdfQrCodes(pdf)).toEqual([classLink]);
    // The class's name as it is written, in any script (decision 074).
    await setGroup(group, sql`name = 'Klass 4C Ελπίδα 🌟'`);
    const renamed = await server.request('GET', `/api/group/poster.pdf?group_id=${group}`, { token: teacher });
    const renamedText = pdfText(Buffer.from(await renamed.arrayBuffer()));
    expect(renamedText, renamedText).toContain('Stötta Klass 4C Ελπίδα 🌟!');
    await setGroup(group, sql`name = 'Klass 4C Lönnskolan'`);
  });

  it('makes an order through it the class’s: in the class total, the payout and its PDF, on no pupil, not unattributed', async () => {
    const order = swedishOrder({
      id: 9_320_001,
      name: '#9321',
      refCode: `KLASS-${code.toLowerCase()}`,
      createdAt: '2026-03-10T14:05:00+01:00',
    });
    expect((await sendShopifyWebhook(server.url, 'orders/create', order)).status).toBe(200);
    const [stored] = await sqlRows<{ group_id: number | null; membership_id: number | null; commission_ore: number; subtotal_ore: number }>(
      server.app.db,
      sql`select group_id, membership_id, commission_ore::int as commission_ore, subtotal_ore::int as subtotal_ore from orders where order_name = '#9321'`,
    );
    expect(stored).toMatchObject({ group_id: group, membership_id: null });
    expect(stored!.commission_ore).toBeGreaterThan(0);

    const totals = await eventually(async () => {
      const body = (await (await server.request('GET', '/api/group/totals', { token: teacher })).json()) as TGroupTotalsResponse;
      return body.totals.total_commission === stored!.commission_ore / 100 ? body : null;
    });
    expect(totals.totals.orders_count).toBe(1);
    const pupils = await sqlRows<{ sales: number }>(
      server.app.db,
      sql`select coalesce(sum(sales_ore), 0)::int as sales from membership_figures where group_id = ${group}`,
    );
    expect(pupils[0]!.sales).toBe(0);

    const classOrders = (await (
      await server.request('GET', `/api/group/orders?group_id=${group}`, { token: teacher })
    ).json()) as TClassOrdersResponse;
    expect(classOrders.items.map((item) => [item.order_name, item.membership_id, item.seller_name])).toEqual([['#9321', null, null]]);

    const admin = await server.login('admin@saljportalen.se');
    const unattributed = await (await server.request('GET', '/api/admin/orders/unattributed', { token: admin })).text();
    expect(unattributed).not.toContain('#9321');

    const created = await server.request('POST', '/api/admin/payouts', {
      token: admin,
      body: { group_id: group, from: '2026-03-01', to: '2026-03-31', auto_archive: false },
    });
    expect(created.ok).toBe(true);
    const payout = (await created.json()) as TCreatePayoutResponse;
    expect(payout, JSON.stringify(payout)).toMatchObject({ created: true, amount: Math.round(stored!.commission_ore / 100) });
    const pdf = await server.request('GET', `/api/admin/payouts/${payout.id}/export.pdf`, { token: admin });
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('Klassen (klasslänken)');
    expect(text).not.toContain('Pia');
  });
});
