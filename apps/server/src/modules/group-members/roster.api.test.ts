/**
 * Issue 31 points 1 and 2: a teacher's class list, pupils with usernames instead of addresses,
 * the sign-in slips, the guardian's approval that sets the pupil's password, and sign-in with a
 * username. On PGlite and on PostgreSQL (TEST_DB=postgres).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TGuardianChildrenResponse, TRosterResponse } from '@saljportalen/contract';
import { pdfText } from '../../../test/pdf-tools.js';
import { groupIdByCode, sqlRows } from '../../../test/admin-fixtures.js';
import { DEMO_TEST_PASSWORD, eventually, startTestServer, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let teacher: string;
let superadmin: string;
let group6b: number;
let scouts: number;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
  teacher = await server.login('larare@bjorkskolan.se');
  superadmin = await server.login('admin@saljportalen.se');
  group6b = await groupIdByCode(server.app.db, 'BJK6B2');
  scouts = await groupIdByCode(server.app.db, 'SCT482');
});
afterAll(() => server.close());

const post = (path: string, body: unknown, token?: string) => server.request('POST', path, { body, token });

async function roster(token: string, groupId: number, pupils: { full_name: string; guardian_email?: string }[]) {
  const response = await post('/api/group/roster', { group_id: groupId, pupils }, token);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as TRosterResponse;
}

async function pupil(fullName: string) {
  const [row] = await sqlRows<{
    id: number;
    username: string | null;
    email: string | null;
    guardian_consent: string | null;
    link_code: string;
  }>(
    server.app.db,
    sql`select u.id, u.username, u.email, u.guardian_consent, m.link_code from users u join memberships m on m.user_id = u.id where u.full_name = ${fullName} and m.group_id = ${group6b}`,
  );
  return row;
}

async function messageOf(response: Response) {
  return ((await response.json()) as { error: { message: string } }).error.message;
}

const FIRST = ['Alva', 'Bror', 'Cleo', 'Dante', 'Edith', 'Frans', 'Greta', 'Harry', 'Idun', 'Jack'];
const LAST = ['Öberg', 'Åkesson', 'Nyström'];

describe('the class list', () => {
  it('adds the 27 good rows of 30 and stores nothing of the 3 bad ones, each answered', async () => {
    const pupils = FIRST.flatMap((first) => LAST.map((last) => ({ full_name: `${first} ${last}` }))).map((row, index) =>
      index % 5 === 0 ? { ...row, guardian_email: `forälder${index}@skolan.se` } : row,
    );
    // Three bad rows: one name only, an address that is none, a web address in the name.
    pupils[3] = { full_name: 'Ensam' };
    pupils[7] = { full_name: 'Okänd Adress', guardian_email: 'inte-en-adress' };
    pupils[12] = { full_name: 'Köp på www.example.com' };
    expect(pupils).toHaveLength(30);
    const mailsBefore = server.mails().length;

    const answer = await roster(teacher, group6b, pupils);

    expect(answer.rows).toHaveLength(30);
    expect(answer.added).toBe(27);
    expect(answer.refused).toBe(3);
    expect(answer.rows.map((row, index) => (row.outcome === 'refused' ? index : null)).filter((index) => index !== null)).toEqual([
      3, 7, 12,
    ]);
    expect(answer.rows[3]!.reason).toBe('Skriv både för- och efternamn');
    expect(answer.rows[7]!.reason).toBe('Ange en giltig e-postadress');
    expect(answer.rows[12]!.reason).toMatch(/webbadress|länk/i);
    expect(answer.rows[0]).toEqual({
      full_name: 'Alva Öberg',
      outcome: 'added',
      reason: null,
      username: 'alva.ob',
      guardian_invited: true,
    });
    expect(answer.rows[1]).toMatchObject({ full_name: 'Alva Åkesson', outcome: 'added', username: 'alva.ak', guardian_invited: false });

    for (const name of ['Ensam', 'Okänd Adress', 'Köp på www.example.com']) expect(await pupil(name), name).toBeUndefined();
    const alva = await pupil('Alva Öberg');
    expect(alva).toMatchObject({ username: 'alva.ob', email: null, guardian_consent: 'pending' });

    // The consent mails of the rows with an address, telling the guardian the teacher added the pupil.
    const invited = answer.rows.filter((row) => row.guardian_invited).length;
    expect(invited).toBe(6);
    const mails = await eventually(() => {
      const sent = server.mails().slice(mailsBefore);
      return sent.length >= invited ? sent : null;
    });
    const toAlva = mails.find((mail) => mail.to === 'forälder0@skolan.se')!;
    expect(toAlva.text).toContain('har lagt till ”Alva Öberg”');
    expect(toAlva.link).toContain('/vardnadshavare/godkann?code=');

    // A pending pupil's link stays inactive.
    const page = await fetch(`${server.url}/s/${alva!.link_code}`, { redirect: 'manual' });
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toContain('Länken är inte aktiv än');

    const [audit] = await sqlRows<{ details: { added: number; refused: number } }>(
      server.app.db,
      sql`select details from audit_entries where action = 'group.roster_import' and target_id = ${String(group6b)} order by id desc limit 1`,
    );
    expect(audit!.details).toMatchObject({ added: 27, refused: 3 });

    // The same list again: every good row is already in the group, nothing new.
    const again = await roster(teacher, group6b, pupils.slice(0, 3));
    expect(again.rows.map((row) => row.outcome)).toEqual(['already_member', 'already_member', 'already_member']);
    expect(again.rows.map((row) => row.guardian_invited)).toEqual([false, false, false]);
  });

  it('gives usernames unique across the portal, never the whole surname', async () => {
    const answer = await roster(superadmin, scouts, [
      { full_name: 'Alva Öberg' },
      { full_name: 'ALVA ÖBERGSSON' },
      { full_name: 'Li Ek' },
      { full_name: 'Li Ek' },
    ]);
    expect(answer.rows.map((row) => row.username)).toEqual(['alva.ob2', 'alva.ob3', 'li.e', null]);
    expect(answer.rows[3]).toMatchObject({ outcome: 'refused', reason: expect.stringContaining('Samma namn') });
  });

  it('is the group admin’s or the superadmin’s alone', async () => {
    const seller = await server.login('noah@demo.se');
    const otherAdmin = await server.login('ledare@tallen.se');
    for (const token of [seller, otherAdmin, undefined]) {
      const response = await post('/api/group/roster', { group_id: group6b, pupils: [{ full_name: 'Obehörig Elev' }] }, token);
      expect(response.status).toBe(token ? 403 : 401);
    }
    expect(await pupil('Obehörig Elev')).toBeUndefined();
    const tooMany = await post('/api/group/roster', { group_id: group6b, pupils: Array(201).fill({ full_name: 'Många Elever' }) }, teacher);
    expect(tooMany.status).toBe(400);
    expect(await messageOf(tooMany)).toBe('En klasslista får ha högst 200 rader');
  });
});

describe('a pupil without an address', () => {
  it('signs in with a slip’s one-time code, then with username and password', async () => {
    const slips = await post('/api/group/roster/slips', { group_id: group6b }, teacher);
    expect(slips.status).toBe(200);
    expect(slips.headers.get('content-type')).toContain('application/pdf');
    const text = pdfText(Buffer.from(await slips.arrayBuffer()));
    expect(text).toContain('Klass 6B Björkskolan');
    expect(text).toContain('Alva Åkesson');
    expect(text).toContain('alva.ak');
    // A pupil whose guardian was invited gets no slip.
    expect(text).not.toContain('alva.ob');
    const code = /alva\.ak\s+Engångskod:\s+([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(text)?.[1];
    expect(code, text).toBeDefined();
    expect(text).toMatch(/till och med \d{1,2} [a-z]+ \d{4}/);

    // Before: no password works.
    const before = await post('/api/auth/login', { email: 'alva.ak', password: 'vad-som-helst' });
    expect(before.status).toBe(401);
    expect(await messageOf(before)).toBe('Fel e-postadress eller lösenord');

    const wrong = await post('/api/auth/slip', { username: 'alva.ob', code, new_password: 'alvas-losen-1' });
    expect(wrong.status).toBe(400);
    const redeemed = await post('/api/auth/slip', {
      username: 'Alva.Ak',
      code: code!.toLowerCase().replace('-', ' '),
      new_password: 'alvas-losen-1',
    });
    expect(redeemed.status, await redeemed.clone().text()).toBe(200);
    expect(((await redeemed.json()) as { token: string }).token).toBeTruthy();
    const spent = await post('/api/auth/slip', { username: 'alva.ak', code, new_password: 'ett-annat-losen' });
    expect(spent.status).toBe(400);

    const token = await server.login('alva.ak', 'alvas-losen-1');
    const profile = await server.request('GET', '/api/account/profile', { token });
    expect(((await profile.json()) as { user: { full_name: string } }).user.full_name).toBe('Alva Åkesson');
    const wrongPassword = await post('/api/auth/login', { email: 'alva.ak', password: 'fel-losen-1' });
    expect(wrongPassword.status).toBe(401);

    // New slips: the older unused code of a pupil stops working.
    const first = pdfText(Buffer.from(await (await post('/api/group/roster/slips', { group_id: group6b }, teacher)).arrayBuffer()));
    const old = /bror\.ak\s+Engångskod:\s+([A-Z0-9-]{9})/.exec(first)![1];
    await post('/api/group/roster/slips', { group_id: group6b }, teacher);
    expect((await post('/api/auth/slip', { username: 'bror.ak', code: old, new_password: 'brors-losen-1' })).status).toBe(400);
  });

  it('gets a guardian’s invitation when a later list gives the address, and then no more slips', async () => {
    const answer = await roster(teacher, group6b, [{ full_name: 'Cleo Nyström', guardian_email: 'sen.foralder@skolan.se' }]);
    expect(answer.rows[0]).toEqual({
      full_name: 'Cleo Nyström',
      outcome: 'already_member',
      reason: null,
      username: 'cleo.ny',
      guardian_invited: true,
    });
    const mail = await eventually(() => server.mails().find((candidate) => candidate.to === 'sen.foralder@skolan.se'));
    expect(mail.text).toContain('har lagt till ”Cleo Nyström”');
    // Once invited, a second address in a later list changes nothing.
    const again = await roster(teacher, group6b, [{ full_name: 'Cleo Nyström', guardian_email: 'annan.foralder@skolan.se' }]);
    expect(again.rows[0]!.guardian_invited).toBe(false);
    const slips = pdfText(Buffer.from(await (await post('/api/group/roster/slips', { group_id: group6b }, teacher)).arrayBuffer()));
    expect(slips).not.toContain('cleo.ny');
  });

  it('is approved by the guardian from the invitation, who sets the password and later changes it', async () => {
    const mail = server.mails().find((candidate) => candidate.to === 'forälder0@skolan.se')!;
    const code = new URL(mail.link!).searchParams.get('code')!;
    const shown = await server.request('GET', `/api/guardian/consent?code=${encodeURIComponent(code)}`);
    expect(await shown.json()).toMatchObject({ child: { full_name: 'Alva Öberg', email: null, username: 'alva.ob' } });

    const guardian = {
      code,
      decision: 'approve',
      account: 'new',
      full_name: 'Förälder Öberg',
      email: 'forälder0@skolan.se',
      password: DEMO_TEST_PASSWORD,
    };
    const withoutPassword = await post('/api/guardian/consent', guardian);
    expect(withoutPassword.status).toBe(400);
    expect(await withoutPassword.json()).toMatchObject({ error: { details: [{ field: 'child_password' }] } });

    const approved = await post('/api/guardian/consent', {
      ...guardian,
      child_password: 'alvas-eget-1',
      child_public_name: 'alias',
      child_alias: 'Stjärnan',
    });
    expect(approved.status, await approved.clone().text()).toBe(200);
    const alva = await pupil('Alva Öberg');
    expect(alva!.guardian_consent).toBe('approved');
    const [name] = await sqlRows<{ public_name: string; alias: string }>(
      server.app.db,
      sql`select public_name, alias from users where id = ${alva!.id}`,
    );
    expect(name).toEqual({ public_name: 'alias', alias: 'Stjärnan' });

    const pupilToken = await server.login('alva.ob', 'alvas-eget-1');
    expect(pupilToken).toBeTruthy();

    const guardianToken = ((await approved.json()) as { token: string }).token;
    const children = (await (
      await server.request('GET', '/api/guardian/children', { token: guardianToken })
    ).json()) as TGuardianChildrenResponse;
    expect(children.children).toEqual([expect.objectContaining({ user_id: Number(alva!.id), username: 'alva.ob' })]);
    const changed = await post(`/api/guardian/children/${alva!.id}/password`, { new_password: 'alvas-nya-1' }, guardianToken);
    expect(changed.status).toBe(200);
    expect((await post('/api/auth/login', { email: 'alva.ob', password: 'alvas-eget-1' })).status).toBe(401);
    expect(await server.login('alva.ob', 'alvas-nya-1')).toBeTruthy();
    // Not the password of someone else's child.
    const other = await pupil('Alva Åkesson');
    expect((await post(`/api/guardian/children/${other!.id}/password`, { new_password: 'alvas-nya-1' }, guardianToken)).status).toBe(404);
  });
});

describe('the sign-in slips of a class with names in other scripts', () => {
  it('print each name exactly as it is written (issue 32 point 3)', async () => {
    const names = ['Łucja Şahin-Nguyễn', 'Μαρία Παπαδοπούλου', 'Мария Иванова', 'محمد علي'];
    const answer = await roster(
      superadmin,
      scouts,
      names.map((full_name) => ({ full_name })),
    );
    expect(answer.rows.map((row) => row.outcome)).toEqual(names.map(() => 'added'));
    const slips = await post('/api/group/roster/slips', { group_id: scouts }, superadmin);
    expect(slips.status).toBe(200);
    const text = pdfText(Buffer.from(await slips.arrayBuffer()));
    for (const name of names) expect(text).toContain(name);
    for (const row of answer.rows) expect(text).toContain(row.username!);
  });
});
