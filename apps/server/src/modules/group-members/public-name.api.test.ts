/**
 * Issue 22 point 7: what is handed out names a child only as far as the family chooses. Every
 * buyer-facing surface (the catalogue PDF, the share texts' name in the summary, the link's
 * pages) for each choice; who may choose; the protected-identity mark and the leaderboard.
 */
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TGroupMembersResponse, TLeaderboardResponse, TMeSummaryResponse, TPublicNameResponse } from '@saljportalen/contract';
import { pdfText } from '../../../test/pdf-tools.js';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { DEMO_TEST_PASSWORD, startTestServer, type TestServer, fullLeaderboardItems } from '../../../test/test-server.js';
import { NEUTRAL_SELLER_NAME } from '../memberships/public-seller-name.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
});
afterAll(() => server.close());

const rows = <T>(query: SQL) => sqlRows<T>(server.app.db, query);

async function json<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const response = await server.request(method, path, { token, body });
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function refusal(response: Response) {
  return { status: response.status, message: ((await response.json()) as { error: { message: string } }).error.message };
}

async function seller(email: string) {
  const [row] = await rows<{ user_id: number; full_name: string; membership_id: number; group_id: number; link_code: string }>(sql`
    select u.id as user_id, u.full_name, m.id as membership_id, m.group_id, m.link_code
    from users u join memberships m on m.user_id = u.id and m.group_id = u.active_group_id where u.email = ${email}`);
  return { ...row!, user_id: Number(row!.user_id), membership_id: Number(row!.membership_id), group_id: Number(row!.group_id) };
}

/** What a buyer can see of this seller: the catalogue's text and file name, the share texts' name, the page before the shop. */
async function buyerSurfaces(token: string, linkCode: string) {
  const pdf = await server.request('GET', '/api/catalog/me.pdf', { token });
  expect(pdf.status).toBe(200);
  const summary = await json<TMeSummaryResponse>('GET', '/api/me/summary', token);
  const link = await fetch(`${server.url}/s/${linkCode}`, { redirect: 'manual' });
  return {
    catalogue: pdfText(Buffer.from(await pdf.arrayBuffer())).replace(/\u00a0/g, ' '),
    fileName: pdf.headers.get('content-disposition'),
    share: summary.user.public_seller_name,
    linkPage: await link.text(),
  };
}

describe('the name buyers see, chosen by a pupil of 13 or over', () => {
  it('is the first name by default, the whole name or the alias when chosen, on every surface a buyer sees', async () => {
    const elsa = await seller('elsa@demo.se');
    const [first, ...rest] = elsa.full_name.split(' ');
    const surname = rest.join(' ');
    expect(surname.length).toBeGreaterThan(0);
    const token = await server.login('elsa@demo.se');

    const choice = await json<TPublicNameResponse>('GET', '/api/account/public-name', token);
    expect(choice).toEqual({ public_name: 'first_name', alias: null, chosen_by_guardian: false, public_seller_name: first });
    let seen = await buyerSurfaces(token, elsa.link_code);
    expect(seen.share).toBe(first);
    expect(seen.catalogue).toContain(first);
    expect(seen.catalogue).not.toContain(surname);
    expect(seen.fileName).toBe(`attachment; filename=katalog-${first}.pdf`);
    // The page before the shop (issue 32) names the pupil as the family chose, and never more.
    expect(seen.linkPage).toContain(`Du stöttar ${first} i`);
    expect(seen.linkPage).not.toContain(surname);

    await json('POST', '/api/account/public-name', token, { public_name: 'full_name', alias: null });
    seen = await buyerSurfaces(token, elsa.link_code);
    expect(seen.share).toBe(elsa.full_name);
    expect(seen.catalogue).toContain(elsa.full_name);
    expect(seen.linkPage).toContain(`Du stöttar ${elsa.full_name} i`);

    // Control characters go as in every other name; the alias is all a buyer sees.
    const answer = await json<TPublicNameResponse>('POST', '/api/account/public-name', token, {
      public_name: 'alias',
      alias: ' Stjärn\u0007skott\n ',
    });
    expect(answer).toMatchObject({ public_name: 'alias', alias: 'Stjärn skott', public_seller_name: 'Stjärn skott' });
    seen = await buyerSurfaces(token, elsa.link_code);
    expect(seen.share).toBe('Stjärn skott');
    expect(seen.catalogue).toContain('Stjärn skott');
    expect(seen.catalogue).not.toContain(first);
    expect(seen.fileName).toBe(`attachment; filename=katalog-Stjarn-skott.pdf; filename*=UTF-8''katalog-Stj%C3%A4rn-skott.pdf`);
    expect(seen.linkPage).toContain('Du stöttar Stjärn skott i');
    expect(seen.linkPage).not.toContain(first);

    // The admin area keeps the real name.
    const admin = await server.login('admin@saljportalen.se');
    const members = await json<{ items: { user_id: number; full_name: string }[] }>(
      'GET',
      `/api/admin/groups/${elsa.group_id}/members`,
      admin,
    );
    expect(members.items.find((item) => item.user_id === elsa.user_id)?.full_name).toBe(elsa.full_name);

    await json('POST', '/api/account/public-name', token, { public_name: 'first_name', alias: null });
  });

  it('refuses an alias chosen but not given, or too long, in Swedish', async () => {
    const token = await server.login('elsa@demo.se');
    for (const [body, message] of [
      [{ public_name: 'alias', alias: '  ' }, 'Skriv ett alias'],
      [{ public_name: 'alias' }, 'Skriv ett alias'],
      [{ public_name: 'alias', alias: 'x'.repeat(41) }, 'högst 40 tecken'],
      [{ public_name: 'smeknamn', alias: null }, 'Välj hur ditt namn ska visas'],
    ] as const) {
      const response = await server.request('POST', '/api/account/public-name', { token, body });
      const { status, message: said } = await refusal(response);
      expect(status).toBe(400);
      expect(said).toContain(message);
    }
  });
});

describe('the name of a pupil under 13, chosen by the approved guardian', () => {
  it('refuses the pupil and any other grown-up, lets the approved guardian choose, and audit-logs it', async () => {
    const noah = await seller('noah@demo.se');
    await server.app.db.execute(sql`update users set is_under_13 = true, guardian_consent = 'approved' where id = ${noah.user_id}`);
    const noahToken = await server.login('noah@demo.se');

    const own = await refusal(
      await server.request('POST', '/api/account/public-name', { token: noahToken, body: { public_name: 'full_name' } }),
    );
    expect(own).toEqual({ status: 403, message: 'Din vårdnadshavare väljer hur ditt namn visas för köpare' });
    expect((await json<TPublicNameResponse>('GET', '/api/account/public-name', noahToken)).chosen_by_guardian).toBe(true);

    // The guardian: a grown-up with an account of their own, linked to Noah; approved only later.
    const registered = await server.request('POST', '/api/auth/register-seller', {
      body: { full_name: 'Karin Förälder', email: 'karin@demo.se', password: DEMO_TEST_PASSWORD, group_code: 'SCT482' },
    });
    expect(registered.status).toBe(200);
    const [karin] = await rows<{ id: number }>(sql`select id from users where email = 'karin@demo.se'`);
    const [link] = await rows<{ id: number }>(sql`
      insert into guardian_links (child_user_id, guardian_user_id, guardian_email) values (${noah.user_id}, ${karin!.id}, 'karin@demo.se')
      returning id`);
    const karinToken = await server.login('karin@demo.se');
    const path = `/api/guardian/children/${noah.user_id}/public-name`;
    const choice = { public_name: 'alias', alias: 'Blixten' };

    const notYet = await refusal(await server.request('POST', path, { token: karinToken, body: choice }));
    expect(notYet).toEqual({ status: 404, message: 'Du är inte vårdnadshavare för det här barnet i Säljportalen' });
    for (const email of ['larare@bjorkskolan.se', 'elsa@demo.se', 'admin@saljportalen.se']) {
      const other = await server.request('POST', path, { token: await server.login(email), body: choice });
      expect(other.status, email).toBe(404);
    }

    await server.app.db.execute(sql`update guardian_links set approved_at = now() where id = ${link!.id}`);
    const chosen = await json<TPublicNameResponse>('POST', path, karinToken, choice);
    expect(chosen).toMatchObject({ public_name: 'alias', alias: 'Blixten', chosen_by_guardian: true, public_seller_name: 'Blixten' });
    expect(await json<TPublicNameResponse>('GET', path, karinToken)).toEqual(chosen);
    // A child the guardian is not linked to stays out of reach.
    const elsa = await seller('elsa@demo.se');
    const elsewhere = await server.request('POST', `/api/guardian/children/${elsa.user_id}/public-name`, {
      token: karinToken,
      body: choice,
    });
    expect(elsewhere.status).toBe(404);

    const seen = await buyerSurfaces(noahToken, noah.link_code);
    expect(seen.share).toBe('Blixten');
    expect(seen.catalogue).toContain('Blixten');
    expect(seen.catalogue).not.toContain(noah.full_name.split(' ')[0]);

    const audit = await rows<{ actor_user_id: number; details: { public_name: string } }>(sql`
      select actor_user_id, details from audit_entries where action = 'user.public_name' and target_id = ${String(noah.user_id)}`);
    expect(audit).toHaveLength(1);
    expect(Number(audit[0]!.actor_user_id)).toBe(Number(karin!.id));

    await server.app.db.execute(
      sql`update users set is_under_13 = false, guardian_consent = null, public_name = 'first_name', alias = null where id = ${noah.user_id}`,
    );
  });
});

describe('protected identity (skyddade personuppgifter)', () => {
  const leaderboardNames = async (token: string) =>
    fullLeaderboardItems(await json<TLeaderboardResponse>('GET', '/api/group/leaderboard-mine', token)).map((item) => item.user_id);
  const version = async (groupId: number) =>
    Number((await rows<{ version: string }>(sql`select version::text from group_figures where group_id = ${groupId}`))[0]!.version);

  it("is marked by the group's admin: off the leaderboard at once, only the alias on what buyers see, the real name in the admin area", async () => {
    const noah = await seller('noah@demo.se');
    const teacher = await server.login('larare@bjorkskolan.se');
    const noahToken = await server.login('noah@demo.se');
    const first = noah.full_name.split(' ')[0]!;

    // The class list of the group card: everyone with the mark off.
    const list = await json<TGroupMembersResponse>('GET', `/api/group/members?group_id=${noah.group_id}`, teacher);
    expect(list.items.find((item) => item.membership_id === noah.membership_id)).toMatchObject({
      full_name: noah.full_name,
      protected_identity: false,
    });
    // Read once, so the leaderboard of this version is in the cache.
    expect(await leaderboardNames(teacher)).toContain(noah.user_id);
    const before = await version(noah.group_id);

    const marked = await json('POST', '/api/group/members/protected', teacher, {
      group_id: noah.group_id,
      membership_id: noah.membership_id,
      protected: true,
    });
    expect(marked).toEqual({ ok: true, protected: true });
    expect(await version(noah.group_id)).toBeGreaterThan(before);
    expect(await leaderboardNames(teacher)).not.toContain(noah.user_id);
    expect(await leaderboardNames(noahToken)).not.toContain(noah.user_id);

    // Whatever was chosen, no real name: the neutral name without an alias, the alias with one.
    await json('POST', '/api/account/public-name', noahToken, { public_name: 'full_name', alias: null });
    let seen = await buyerSurfaces(noahToken, noah.link_code);
    expect(seen.share).toBe(NEUTRAL_SELLER_NAME);
    expect(seen.catalogue).toContain(NEUTRAL_SELLER_NAME);
    expect(seen.catalogue).not.toContain(first);
    await json('POST', '/api/account/public-name', noahToken, { public_name: 'full_name', alias: 'Räven' });
    seen = await buyerSurfaces(noahToken, noah.link_code);
    expect(seen.share).toBe('Räven');
    expect(seen.catalogue).toContain('Räven');
    expect(seen.catalogue).not.toContain(first);
    expect(seen.catalogue).not.toContain('Klass 6B');

    // The admin area keeps the real name, and shows the mark.
    const admin = await server.login('admin@saljportalen.se');
    const adminList = await json<TGroupMembersResponse>('GET', `/api/group/members?group_id=${noah.group_id}`, admin);
    expect(adminList.items.find((item) => item.membership_id === noah.membership_id)).toMatchObject({
      full_name: noah.full_name,
      protected_identity: true,
    });

    const audit = await rows<{ actor_user_id: number; details: { protected: boolean } }>(sql`
      select actor_user_id, details from audit_entries where action = 'membership.protected_identity' and target_id = ${String(noah.membership_id)}`);
    expect(audit.map((entry) => entry.details.protected)).toEqual([true]);

    // A superadmin may lift the mark: back on the leaderboard, the chosen name again.
    await json('POST', '/api/group/members/protected', admin, {
      group_id: noah.group_id,
      membership_id: noah.membership_id,
      protected: false,
    });
    expect(await leaderboardNames(teacher)).toContain(noah.user_id);
    expect((await buyerSurfaces(noahToken, noah.link_code)).share).toBe(noah.full_name);
    await json('POST', '/api/account/public-name', noahToken, { public_name: 'first_name', alias: null });
  });

  it("is refused to a seller, to another group's admin and for a pupil of another group, and changes nothing", async () => {
    const noah = await seller('noah@demo.se');
    const [scoutGroup] = await rows<{ id: number }>(sql`select id from groups where code = 'SCT482'`);
    const attempts = [
      ['elsa@demo.se', { group_id: noah.group_id, membership_id: noah.membership_id, protected: true }],
      ['noah@demo.se', { group_id: noah.group_id, membership_id: noah.membership_id, protected: true }],
      ['ledare@tallen.se', { group_id: noah.group_id, membership_id: noah.membership_id, protected: true }],
      // Their own group's id with a pupil of another group.
      ['ledare@tallen.se', { group_id: Number(scoutGroup!.id), membership_id: noah.membership_id, protected: true }],
    ] as const;
    for (const [email, body] of attempts) {
      const answer = await refusal(
        await server.request('POST', '/api/group/members/protected', { token: await server.login(email), body }),
      );
      expect(answer, email).toEqual({ status: 403, message: 'Endast gruppens administratörer kan markera skyddade personuppgifter' });
    }
    for (const email of ['elsa@demo.se', 'ledare@tallen.se']) {
      const list = await server.request('GET', `/api/group/members?group_id=${noah.group_id}`, { token: await server.login(email) });
      expect(list.status, email).toBe(403);
    }
    const [row] = await rows<{ protected_identity: boolean }>(
      sql`select protected_identity from memberships where id = ${noah.membership_id}`,
    );
    expect(row!.protected_identity).toBe(false);
  });
});
