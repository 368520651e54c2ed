import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GUARDIAN_EMAIL_OWN,
  GUARDIAN_EMAIL_REQUIRED,
  type TGuardianChildrenResponse,
  type TGuardianConsentResponse,
  type TLeaderboardResponse,
  type TMeSummaryResponse,
  type TProfileResponse,
} from '@saljportalen/contract';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { sendShopifyWebhook, swedishOrder } from '../../../test/shopify-webhooks.js';
import { eventually, startTestServer, type TestServer, fullLeaderboardItems } from '../../../test/test-server.js';
import { CONSENT_CODE_TTL_DAYS } from '../auth/invite-guardian.js';

/** Issue 22, points 1 and 2: a guardian's consent for a seller under 13, and the guardian's view. */
let server: TestServer;
let teacher: string;
let counter = 0;

async function ok<T>(response: Response): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}
const post = (path: string, body: unknown, token?: string) => server.request('POST', path, { body, token });
const get = (path: string, token?: string) => server.request('GET', path, { token });

interface Child {
  token: string;
  userId: number;
  email: string;
  linkCode: string;
  code: string;
}

/** Registers a pupil under 13 (in 6B unless told) and returns them with the code mailed to their guardian. */
async function registerChild(guardianEmail: string, name = 'Lilla Larsson', groupCode = 'BJK6B2'): Promise<Child> {
  counter += 1;
  const email = `barn-${counter}-${Date.now()}@demo.se`;
  const { token } = await ok<{ token: string }>(
    await post('/api/auth/register-seller', {
      full_name: name,
      email,
      password: 'hemligt123',
      group_code: groupCode,
      under_13: true,
      guardian_email: guardianEmail,
    }),
  );
  const [row] = await sqlRows<{ id: number; link_code: string }>(
    server.app.db,
    sql`select u.id, m.link_code from users u join memberships m on m.user_id = u.id where u.email = ${email}`,
  );
  const mail = await eventually(() =>
    server
      .mails()
      .find((candidate) => candidate.to === guardianEmail && candidate.text.includes(name) && candidate.link?.includes('code=')),
  );
  const code = new URL(mail.link!).searchParams.get('code')!;
  // One mail per child: the next child of the same guardian is found by its name.
  await server.app.db.execute(sql`select 1`);
  return { token, userId: Number(row!.id), email, linkCode: row!.link_code, code };
}

async function refusalOf(response: Response) {
  const { error } = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, code: error.code, message: error.message };
}

async function leaderboardIds(token: string): Promise<number[]> {
  const board = await ok<TLeaderboardResponse>(await get('/api/group/leaderboard-mine', token));
  return fullLeaderboardItems(board).map((item) => item.user_id);
}

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  teacher = await server.login('larare@bjorkskolan.se');
});
afterAll(() => server.close());

describe('registering a seller under 13', () => {
  it('requires a guardian e-mail that is not the child’s own, with a Swedish message', async () => {
    const base = {
      full_name: 'Utan Vårdnadshavare',
      email: 'utan.vh@demo.se',
      password: 'hemligt123',
      group_code: 'BJK6B2',
      under_13: true,
    };
    const missing = await post('/api/auth/register-seller', base);
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toContain(GUARDIAN_EMAIL_REQUIRED);
    const own = await post('/api/auth/register-seller', { ...base, guardian_email: 'UTAN.VH@demo.se' });
    expect(own.status).toBe(400);
    expect(JSON.stringify(await own.json())).toContain(GUARDIAN_EMAIL_OWN);
    expect(await sqlRows(server.app.db, sql`select id from users where email = 'utan.vh@demo.se'`)).toEqual([]);
  });

  it('stores the child as waiting, with a hashed expiring code, and mails the guardian in Swedish', async () => {
    const child = await registerChild('mamma.ett@demo.se', 'Ella Ettan');
    const [user] = await sqlRows<{ is_under_13: boolean; guardian_consent: string }>(
      server.app.db,
      sql`select is_under_13, guardian_consent from users where id = ${child.userId}`,
    );
    expect(user).toEqual({ is_under_13: true, guardian_consent: 'pending' });
    const [link] = await sqlRows<{ code_hash: string; guardian_email: string; days: number }>(
      server.app.db,
      sql`select code_hash, guardian_email, round(extract(epoch from code_expires_at - now()) / 86400)::int as days
          from guardian_links where child_user_id = ${child.userId}`,
    );
    expect(link!.guardian_email).toBe('mamma.ett@demo.se');
    expect(link!.code_hash).not.toContain(child.code);
    expect(link!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(link!.days)).toBe(CONSENT_CODE_TTL_DAYS);
    const mail = server.mails().find((candidate) => candidate.to === 'mamma.ett@demo.se')!;
    expect(mail.link).toMatch(/^http:\/\/localhost:3000\/vardnadshavare\/godkann\?code=/);
    expect(mail.text).toContain('http://localhost:3000/integritet');
    expect(mail.text).toContain('Ella Ettan');
    expect(mail.html).toContain('lang="sv"');
  });
});

describe('a child waiting for consent', () => {
  let child: Child;
  beforeAll(async () => {
    child = await registerChild('pappa.tva@demo.se', 'Vilma Väntar');
  });

  it('can sign in and is told kindly; the link and the catalogue are not handed out', async () => {
    const token = await server.login(child.email, 'hemligt123');
    const summary = await ok<TMeSummaryResponse>(await get('/api/me/summary', token));
    expect(summary.user.awaiting_guardian_consent).toBe(true);
    expect(summary.personal.personal_link).toBeNull();
    const catalog = await get('/api/catalog/me.pdf', token);
    expect(catalog.status).toBe(403);
    expect(((await catalog.json()) as { error: { message: string } }).error.message).toContain('vårdnadshavare');
  });

  it('has an inactive link that redirects nowhere and counts nothing', async () => {
    const response = await fetch(`${server.url}/s/${child.linkCode}`, { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(response.headers.get('location')).toBeNull();
    const page = await response.text();
    expect(page).toContain('Länken är inte aktiv än');
    expect(page).not.toContain('Vilma');
    const [clicks] = await sqlRows<{ n: number }>(
      server.app.db,
      sql`select coalesce(sum(c.clicks), 0)::int as n from link_clicks_per_day c join memberships m on m.id = c.membership_id where m.user_id = ${child.userId}`,
    );
    expect(Number(clicks!.n)).toBe(0);
  });

  it('is on no leaderboard until approved, and the cached leaderboard changes on approval', async () => {
    expect(await leaderboardIds(teacher)).not.toContain(child.userId);
    const [before] = await sqlRows<{ version: string }>(
      server.app.db,
      sql`select version from group_figures where group_id = (select group_id from memberships where user_id = ${child.userId})`,
    );
    await ok(
      await post('/api/guardian/consent', {
        code: child.code,
        decision: 'approve',
        account: 'new',
        full_name: 'Pappa Två',
        email: 'pappa.tva@demo.se',
        password: 'pappas-losen-1',
      }),
    );
    const [after] = await sqlRows<{ version: string }>(
      server.app.db,
      sql`select version from group_figures where group_id = (select group_id from memberships where user_id = ${child.userId})`,
    );
    expect(BigInt(after!.version)).toBeGreaterThan(BigInt(before!.version));
    expect(await leaderboardIds(teacher)).toContain(child.userId);
    expect(await (await fetch(`${server.url}/s/${child.linkCode}`, { redirect: 'manual' })).text()).toContain(`?ref=${child.linkCode}"`);
  });

  it('leaves orders with the code unattributed for the superadmin while waiting', async () => {
    const waiting = await registerChild('mamma.tre@demo.se', 'Olle Order');
    const response = await sendShopifyWebhook(server.url, 'orders/create', swedishOrder({ id: 9_220_001, refCode: waiting.linkCode }));
    expect(response.status).toBe(200);
    const [order] = await sqlRows<{ membership_id: number | null; ref_code: string }>(
      server.app.db,
      sql`select membership_id, ref_code from orders where shopify_order_id = '9220001'`,
    );
    expect(order).toEqual({ membership_id: null, ref_code: waiting.linkCode });
    const admin = await server.login('admin@saljportalen.se');
    const list = await ok<{ items: { ref_code: string | null }[] }>(await get('/api/admin/orders/unattributed', admin));
    expect(list.items.some((item) => item.ref_code === waiting.linkCode)).toBe(true);
  });
});

describe('the consent page and its answers', () => {
  it('shows what is stored about the child; unknown, used and expired codes are told apart in Swedish', async () => {
    const child = await registerChild('mormor.fyra@demo.se', 'Nils Nyfiken');
    const shown = await ok<TGuardianConsentResponse>(await get(`/api/guardian/consent?code=${encodeURIComponent(child.code)}`));
    expect(shown.child).toEqual({ full_name: 'Nils Nyfiken', email: child.email, username: null, groups: ['Klass 6B Björkskolan'] });
    expect(shown.guardian_email).toBe('mormor.fyra@demo.se');

    const unknown = await get(`/api/guardian/consent?code=${'x'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain('finns inte');

    await server.app.db.execute(
      sql`update guardian_links set code_expires_at = now() - interval '1 minute' where child_user_id = ${child.userId}`,
    );
    const expired = await get(`/api/guardian/consent?code=${encodeURIComponent(child.code)}`);
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toContain('gått ut');
    const late = await post('/api/guardian/consent', { code: child.code, decision: 'decline' });
    expect(late.status).toBe(410);
  });

  it('approves with a new account: signs the guardian in, gives no membership, and the code works once', async () => {
    const child = await registerChild('farmor.fem@demo.se', 'Greta Godkänd');
    const approved = await ok<{ decision: string; token: string }>(
      await post('/api/guardian/consent', {
        code: child.code,
        decision: 'approve',
        account: 'new',
        full_name: 'Farmor Fem',
        email: 'farmor.fem@demo.se',
        password: 'farmors-losen-1',
      }),
    );
    expect(approved.decision).toBe('approve');
    const summary = await ok<TMeSummaryResponse>(await get('/api/me/summary', approved.token));
    expect(summary).toMatchObject({ user: { full_name: 'Farmor Fem', is_guardian: true, role: null }, group_hint: null });
    const [link] = await sqlRows<{ approved: boolean; used: boolean; guardian: number }>(
      server.app.db,
      sql`select approved_at is not null as approved, code_used_at is not null as used, guardian_user_id as guardian
          from guardian_links where child_user_id = ${child.userId}`,
    );
    expect(link).toMatchObject({ approved: true, used: true });
    expect(await sqlRows(server.app.db, sql`select id from memberships where user_id = ${link!.guardian}`)).toEqual([]);
    const [consent] = await sqlRows<{ guardian_consent: string }>(
      server.app.db,
      sql`select guardian_consent from users where id = ${child.userId}`,
    );
    expect(consent!.guardian_consent).toBe('approved');

    const again = await post('/api/guardian/consent', { code: child.code, decision: 'decline' });
    expect(again.status).toBe(410);
    expect(((await again.json()) as { error: { message: string } }).error.message).toContain('redan använts');
    expect((await get(`/api/guardian/consent?code=${encodeURIComponent(child.code)}`)).status).toBe(410);
  });

  it('approves with an existing account after its password, and refuses a wrong one or the child’s own', async () => {
    // The coach of another group may be a parent: only the child's own groups are refused.
    const child = await registerChild('tranare@savedalen.se', 'Sixten Syskon');
    const wrong = await post('/api/guardian/consent', {
      code: child.code,
      decision: 'approve',
      account: 'existing',
      email: 'tranare@savedalen.se',
      password: 'fel-losenord',
    });
    expect(wrong.status).toBe(401);
    const self = await post('/api/guardian/consent', {
      code: child.code,
      decision: 'approve',
      account: 'existing',
      email: child.email,
      password: 'hemligt123',
    });
    expect(self.status).toBe(400);
    const missing = await post('/api/guardian/consent', { code: child.code, decision: 'approve' });
    expect(missing.status).toBe(400);
    const approved = await ok<{ token: string }>(
      await post('/api/guardian/consent', {
        code: child.code,
        decision: 'approve',
        account: 'existing',
        email: 'tranare@savedalen.se',
        password: 'demo1234',
      }),
    );
    const children = await ok<TGuardianChildrenResponse>(await get('/api/guardian/children', approved.token));
    expect(children.children.map((entry) => entry.user_id)).toEqual([child.userId]);
  });

  it('declines: the child’s account is erased and its link stops working', async () => {
    const child = await registerChild('moster.sex@demo.se', 'Dora Döljd');
    expect(await ok(await post('/api/guardian/consent', { code: child.code, decision: 'decline' }))).toEqual({
      decision: 'decline',
      ok: true,
    });
    const [user] = await sqlRows<{ full_name: string; erased: boolean; email: string }>(
      server.app.db,
      sql`select full_name, erased_at is not null as erased, email from users where id = ${child.userId}`,
    );
    expect(user).toMatchObject({ full_name: 'Borttagen säljare', erased: true });
    expect(user!.email).not.toBe(child.email);
    expect((await post('/api/auth/login', { email: child.email, password: 'hemligt123' })).status).toBe(401);
    expect((await get('/api/me/summary', child.token)).status).toBe(401);
    expect((await fetch(`${server.url}/s/${child.linkCode}`, { redirect: 'manual' })).status).toBe(404);
    expect(await sqlRows(server.app.db, sql`select id from guardian_links where child_user_id = ${child.userId}`)).toEqual([]);
    // The mail's link, opened again, says the account is gone (issue 33 point 7), not that it never was.
    expect(await refusalOf(await get(`/api/guardian/consent?code=${encodeURIComponent(child.code)}`))).toEqual({
      status: 410,
      code: 'ACCOUNT_REMOVED',
      message: 'Godkännandet avböjdes och barnets konto är borttaget. Du behöver inte göra något mer.',
    });
  });
});

describe('receipts and links after the account is gone (issue 33 point 7)', () => {
  const mailsTo = (address: string) => server.mails().filter((mail) => mail.to === address);
  const approveNew = async (child: Child, guardianEmail: string) =>
    (
      await ok<{ token: string }>(
        await post('/api/guardian/consent', {
          code: child.code,
          decision: 'approve',
          account: 'new',
          full_name: 'Kvitto Kvist',
          email: guardianEmail,
          password: 'kvitto-losen-1',
        }),
      )
    ).token;

  it('mails the guardian a receipt of the consent, naming the child after the portal’s words', async () => {
    const child = await registerChild('kvitto.ett@demo.se', 'Ebbe Kvittosson');
    await approveNew(child, 'kvitto.ett@demo.se');
    const receipt = await eventually(() => mailsTo('kvitto.ett@demo.se').find((mail) => mail.subject.startsWith('Du har godkänt')));
    expect(receipt.subject).toBe('Du har godkänt ett barns konto på Säljportalen');
    expect(receipt.text).toContain('Hej Kvitto!');
    expect(receipt.text).toContain('kontot som Ebbe Kvittosson har skapat för att sälja med Klass 6B Björkskolan');
    expect(receipt.text).toContain('återkalla samtycket');
    expect(receipt.link).toBe('http://localhost:3000/vardnadshavare');
  });

  it('mails a receipt of a withdrawal without the child’s name, and the old link says the account is gone', async () => {
    const child = await registerChild('kvitto.tva@demo.se', 'Frida Kvittodotter');
    const guardian = await approveNew(child, 'kvitto.tva@demo.se');
    expect(await ok(await post(`/api/guardian/children/${child.userId}/withdraw`, {}, guardian))).toEqual({ ok: true });
    const receipt = await eventually(() => mailsTo('kvitto.tva@demo.se').find((mail) => mail.subject.startsWith('Samtycket')));
    expect(receipt.subject).toBe('Samtycket är återkallat och barnets konto är borttaget');
    expect(receipt.text).toContain('Samtycket för barnets konto i Klass 6B Björkskolan återkallades');
    expect(`${receipt.subject} ${receipt.text} ${receipt.html}`).not.toMatch(/Frida|Kvittodotter/);
    // The consent receipt named the child: the erasure took it, as every mail naming the child.
    expect(mailsTo('kvitto.tva@demo.se').filter((mail) => mail.text.includes('Frida'))).toEqual([]);
    expect(await refusalOf(await get(`/api/guardian/consent?code=${encodeURIComponent(child.code)}`))).toMatchObject({
      status: 410,
      code: 'ACCOUNT_REMOVED',
      message: 'Samtycket är återkallat och barnets konto är borttaget. Du behöver inte göra något mer.',
    });
  });

  it('mails a receipt when the child deletes the account; a link still waiting says the account is gone', async () => {
    const approved = await registerChild('kvitto.tre@demo.se', 'Gösta Raderad');
    await approveNew(approved, 'kvitto.tre@demo.se');
    expect((await post('/api/account/delete', { password: 'hemligt123' }, approved.token)).status).toBe(200);
    const receipt = await eventually(() => mailsTo('kvitto.tre@demo.se').find((mail) => mail.subject.includes('borttaget')));
    expect(receipt.subject).toBe('Barnets konto på Säljportalen är borttaget');
    expect(receipt.text).toContain('Barnet raderade själv sitt konto i Klass 6B Björkskolan');
    expect(receipt.text).not.toContain('Gösta');

    // A child who deletes the account before anyone answered: the guardian's link says so.
    const waiting = await registerChild('kvitto.fyra@demo.se', 'Hedda Hann');
    expect((await post('/api/account/delete', { password: 'hemligt123' }, waiting.token)).status).toBe(200);
    expect(await refusalOf(await post('/api/guardian/consent', { code: waiting.code, decision: 'decline' }))).toMatchObject({
      status: 410,
      code: 'ACCOUNT_REMOVED',
      message: 'Barnets konto är borttaget. Du behöver inte göra något mer.',
    });
    // Nobody had approved: no receipt, and the consent request that named the child is gone.
    expect(mailsTo('kvitto.fyra@demo.se')).toEqual([]);
  });
});

describe('who may consent (issue 28)', () => {
  const approveWith = (code: string, email: string, password: string) =>
    post('/api/guardian/consent', { code, decision: 'approve', account: 'existing', email, password });
  async function refusal(response: Response, status: number): Promise<string> {
    expect(response.status, await response.clone().text()).toBe(status);
    return ((await response.json()) as { error: { message: string } }).error.message;
  }
  const stillUsable = async (child: Child) => {
    expect((await get(`/api/guardian/consent?code=${encodeURIComponent(child.code)}`)).status).toBe(200);
    const [user] = await sqlRows<{ guardian_consent: string }>(
      server.app.db,
      sql`select guardian_consent from users where id = ${child.userId}`,
    );
    expect(user!.guardian_consent).toBe('pending');
  };

  it('refuses a seller or an admin of any of the child’s groups, even with the invited address, and the code still works', async () => {
    const classmate = await registerChild('noah@demo.se', 'Klara Klasskamrat');
    expect(await refusal(await approveWith(classmate.code, 'noah@demo.se', 'demo1234'), 403)).toContain('barnets grupp');
    await stillUsable(classmate);
    const pupil = await registerChild('larare@bjorkskolan.se', 'Love Lärarbarn');
    expect(await refusal(await approveWith(pupil.code, 'larare@bjorkskolan.se', 'demo1234'), 403)).toContain('barnets grupp');
    await stillUsable(pupil);
    expect(
      await sqlRows(
        server.app.db,
        sql`select id from guardian_links where guardian_user_id is not null and child_user_id in (${classmate.userId}, ${pupil.userId})`,
      ),
    ).toEqual([]);
  });

  it('refuses an account under 13, waiting or approved, in another group', async () => {
    const scout = await registerChild('scoutmamma@demo.se', 'Sigge Scout', 'SCT482');
    const child = await registerChild(scout.email, 'Tove Tallen');
    expect(await refusal(await approveWith(child.code, scout.email, 'hemligt123'), 403)).toContain('under 13 år');
    await stillUsable(child);
    await ok(
      await post('/api/guardian/consent', {
        code: scout.code,
        decision: 'approve',
        account: 'new',
        full_name: 'Scout Mamma',
        email: 'scoutmamma@demo.se',
        password: 'scoutmammas-losen',
      }),
    );
    expect(await refusal(await approveWith(child.code, scout.email, 'hemligt123'), 403)).toContain('under 13 år');
    await stillUsable(child);
  });

  it('needs the invited address, for an existing account and for a new one', async () => {
    const child = await registerChild('mamma.nio@demo.se', 'Nora Nio');
    const other = await post('/api/guardian/consent', {
      code: child.code,
      decision: 'approve',
      account: 'new',
      full_name: 'Någon Annan',
      email: 'nagon.annan@demo.se',
      password: 'nagons-losen-9',
    });
    expect(await refusal(other, 400)).toContain('mamma.nio@demo.se');
    expect(await sqlRows(server.app.db, sql`select id from users where email = 'nagon.annan@demo.se'`)).toEqual([]);
    expect(await refusal(await approveWith(child.code, 'tranare@savedalen.se', 'demo1234'), 400)).toContain('mamma.nio@demo.se');
    await stillUsable(child);
    await ok(
      await post('/api/guardian/consent', {
        code: child.code,
        decision: 'approve',
        account: 'new',
        full_name: 'Mamma Nio',
        email: 'MAMMA.nio@demo.se',
        password: 'mammas-losen-9',
      }),
    );
  });

  it('writes an audit entry for every approval, decline and withdrawal, with ids only', async () => {
    const approved = await registerChild('pappa.tio@demo.se', 'Tage Tio');
    const { token } = await ok<{ token: string }>(
      await post('/api/guardian/consent', {
        code: approved.code,
        decision: 'approve',
        account: 'new',
        full_name: 'Pappa Tio',
        email: 'pappa.tio@demo.se',
        password: 'pappas-losen-10',
      }),
    );
    const [guardian] = await sqlRows<{ id: number }>(server.app.db, sql`select id from users where email = 'pappa.tio@demo.se'`);
    const declined = await registerChild('pappa.tio@demo.se', 'Dagny Tio');
    await ok(await post('/api/guardian/consent', { code: declined.code, decision: 'decline' }));
    await ok(await post(`/api/guardian/children/${approved.userId}/withdraw`, {}, token));

    const entries = await sqlRows<{ action: string; actor_user_id: number | null; target_id: string; details: unknown }>(
      server.app.db,
      sql`select action, actor_user_id, target_id, details from audit_entries
          where action like 'guardian.%' and target_id in (${String(approved.userId)}, ${String(declined.userId)}) order by id`,
    );
    expect(
      entries.map((entry) => [entry.action, entry.actor_user_id === null ? null : Number(entry.actor_user_id), entry.target_id]),
    ).toEqual([
      ['guardian.approve', Number(guardian!.id), String(approved.userId)],
      ['guardian.decline', null, String(declined.userId)],
      ['guardian.withdraw', Number(guardian!.id), String(approved.userId)],
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/Tage|Dagny|pappa\.tio/i);
  });
});

describe('the guardian view', () => {
  let guardian: string;
  let first: Child;
  let second: Child;
  let otherGuardian: string;
  let otherChild: Child;

  beforeAll(async () => {
    first = await registerChild('foralder.sju@demo.se', 'Alva Första');
    const approved = await ok<{ token: string }>(
      await post('/api/guardian/consent', {
        code: first.code,
        decision: 'approve',
        account: 'new',
        full_name: 'Förälder Sju',
        email: 'foralder.sju@demo.se',
        password: 'foralder-losen-7',
      }),
    );
    guardian = approved.token;
    second = await registerChild('foralder.sju@demo.se', 'Bruno Andra');
    await ok(
      await post('/api/guardian/consent', {
        code: second.code,
        decision: 'approve',
        account: 'existing',
        email: 'foralder.sju@demo.se',
        password: 'foralder-losen-7',
      }),
    );
    otherChild = await registerChild('annan.atta@demo.se', 'Cilla Annan');
    otherGuardian = (
      await ok<{ token: string }>(
        await post('/api/guardian/consent', {
          code: otherChild.code,
          decision: 'approve',
          account: 'new',
          full_name: 'Annan Åtta',
          email: 'annan.atta@demo.se',
          password: 'annans-losen-8',
        }),
      )
    ).token;
  });

  it('lists the guardian’s own children only, and answers each with the child’s own dashboard', async () => {
    const { children } = await ok<TGuardianChildrenResponse>(await get('/api/guardian/children', guardian));
    expect(children.map((child) => child.full_name)).toEqual(['Alva Första', 'Bruno Andra']);
    expect(children[0]!.group_name).toBe('Klass 6B Björkskolan');

    for (const [path, own] of [
      [`/api/guardian/children/${first.userId}/summary`, '/api/me/summary'],
      [`/api/guardian/children/${first.userId}/totals`, '/api/group/totals'],
      [`/api/guardian/children/${first.userId}/leaderboard`, '/api/group/leaderboard-mine'],
    ] as const) {
      expect(await ok(await get(path, guardian)), path).toEqual(await ok(await get(own, first.token)));
    }
    const summary = await ok<TMeSummaryResponse>(await get(`/api/guardian/children/${first.userId}/summary`, guardian));
    expect(summary.personal.personal_link).toBe(`http://localhost:3000/s/${first.linkCode}`);
    const pdf = await get(`/api/guardian/children/${first.userId}/catalog.pdf`, guardian);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('tells the settings what the account is: a guardian sells nothing, a child sells (issue 33)', async () => {
    const accountOf = async (token: string) => (await ok<TProfileResponse>(await get('/api/account/profile', token))).account;
    expect(await accountOf(guardian)).toEqual({ sells: false, is_guardian: true });
    expect(await accountOf(first.token)).toEqual({ sells: true, is_guardian: false });
    expect(await accountOf(teacher)).toEqual({ sells: true, is_guardian: false });
  });

  it('refuses another guardian’s child, a seller who is nobody’s child, and strangers', async () => {
    const [noah] = await sqlRows<{ id: number }>(server.app.db, sql`select id from users where email = 'noah@demo.se'`);
    for (const id of [otherChild.userId, Number(noah!.id), 999_999]) {
      for (const part of ['summary', 'totals', 'leaderboard', 'catalog.pdf']) {
        expect((await get(`/api/guardian/children/${id}/${part}`, guardian)).status, `${id} ${part}`).toBe(404);
      }
      expect((await post(`/api/guardian/children/${id}/withdraw`, {}, guardian)).status).toBe(404);
    }
    expect((await get(`/api/guardian/children/${first.userId}/summary`, otherGuardian)).status).toBe(404);
    expect((await get(`/api/guardian/children/${first.userId}/summary`, first.token)).status).toBe(404);
    expect((await get(`/api/guardian/children/${first.userId}/summary`, teacher)).status).toBe(404);
    expect((await get(`/api/guardian/children/${first.userId}/summary`)).status).toBe(401);
    expect((await get('/api/guardian/children/abc/summary', guardian)).status).toBe(400);
  });

  it('withdraws consent: the child’s account is erased and gone from the view', async () => {
    expect(await ok(await post(`/api/guardian/children/${second.userId}/withdraw`, {}, guardian))).toEqual({ ok: true });
    const [user] = await sqlRows<{ full_name: string; erased: boolean }>(
      server.app.db,
      sql`select full_name, erased_at is not null as erased from users where id = ${second.userId}`,
    );
    expect(user).toEqual({ full_name: 'Borttagen säljare', erased: true });
    expect((await get(`/api/guardian/children/${second.userId}/summary`, guardian)).status).toBe(404);
    const { children } = await ok<TGuardianChildrenResponse>(await get('/api/guardian/children', guardian));
    expect(children.map((child) => child.user_id)).toEqual([first.userId]);
    const [audit] = await sqlRows<{ action: string }>(
      server.app.db,
      sql`select action from audit_entries where target_type = 'user' and target_id = ${String(second.userId)} and action = 'account.erase'`,
    );
    expect(audit!.action).toBe('account.erase');
  });
});
