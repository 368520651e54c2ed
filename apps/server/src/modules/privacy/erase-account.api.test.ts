/**
 * Issue 28, points 1 and 7: nobody can block an erasure, and an erasure leaves nothing behind.
 * No address anyone types can be a tombstone's; an erasure that still cannot finish is a Swedish
 * 409 on every path (self, guardian, superadmin) and the retention job goes on past it; and every
 * mail to or about the erased person goes, its row queued or sent and its file in the outbox.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/test-server.js';
import { ERASURE_BLOCKED_MESSAGE, erasedEmail } from './erase-account.js';

const PASSWORD = 'hemligt-losen-1';
const RESERVED = 'Adresser som slutar på .invalid finns inte. Ange en riktig e-postadress.';
const DAY = 86_400_000;

let server: TestServer;
let superToken: string;
let groupId: number;
let counter = 0;

const rows = <T>(query: ReturnType<typeof sql>) => sqlRows<T>(server.app.db, query);
const post = (pathName: string, body: unknown, token?: string) => server.request('POST', pathName, { body, token });
const errorOf = async (response: Response) => ({
  status: response.status,
  message: ((await response.json()) as { error?: { message: string } }).error?.message,
});

async function register(fullName: string, extra: Record<string, unknown> = {}) {
  counter += 1;
  const email = `elev-${counter}@raderskolan.se`;
  const response = await post('/api/auth/register-seller', {
    full_name: fullName,
    email,
    password: PASSWORD,
    group_code: 'BJK6B2',
    ...extra,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const { token } = (await response.json()) as { token: string };
  const [row] = await rows<{ id: number }>(sql`select id from users where email = ${email}`);
  return { token, email, userId: Number(row!.id) };
}

/** Rows made by `squat`, gone after each test whatever it found, so each test stands alone. */
const squatters: number[] = [];

/** A row holding the tombstone's address: what only a fault, or an account from before the rule, could make. */
async function squat(address: string) {
  const [row] = await rows<{ id: number }>(sql`
    insert into users (email, password_hash, full_name) values (${address}, 'x', 'Ockupant') returning id`);
  squatters.push(Number(row!.id));
  return async () => {
    await rows(sql`delete from users where id = ${row!.id}`);
  };
}

const erased = async (userId: number) =>
  (await rows<{ erased_at: string | null }>(sql`select erased_at from users where id = ${userId}`))[0]!.erased_at !== null;

/** The consent code mailed to a guardian about the child of that name. */
async function consentCode(guardianEmail: string, childName: string) {
  const mail = await eventually(() =>
    server
      .mails()
      .find((candidate) => candidate.to === guardianEmail && candidate.text.includes(childName) && candidate.link?.includes('code=')),
  );
  return new URL(mail.link!).searchParams.get('code')!;
}

/** Everything the outbox folder holds, as text. */
const outboxText = () => JSON.stringify(server.mails());
const mailRowsMentioning = async (text: string) =>
  Number(
    (
      await rows<{ n: number }>(sql`
        select count(*)::int as n from mail_outbox where strpos(lower("to" || ' ' || subject || ' ' || text), lower(${text})) > 0`)
    )[0]!.n,
  );

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  superToken = await server.login('admin@saljportalen.se');
  groupId = Number((await rows<{ id: number }>(sql`select id from groups where code = 'BJK6B2'`))[0]!.id);
});
afterEach(async () => {
  for (const id of squatters.splice(0)) await rows(sql`delete from users where id = ${id}`);
});
afterAll(() => server.close());

describe('no address a person types is a tombstone', () => {
  it('refuses a .invalid address in registration, a change of address, a superadmin adding a person and a guardian invitation', async () => {
    const someone = await register('Sigrid Självständig');
    const taken = erasedEmail(someone.userId + 1000).replace(':', '-');
    const attempts = [
      post('/api/auth/register-seller', { full_name: 'Olle Ockupant', email: taken, password: PASSWORD, group_code: 'BJK6B2' }),
      post('/api/account/change-email', { current_password: PASSWORD, new_email: 'BORTTAGEN-5@RADERAD.INVALID' }, someone.token),
      post(`/api/admin/groups/${groupId}/add-user`, { email: 'vem@som.helst.invalid', role: 'seller', full_name: 'Vem Som' }, superToken),
      post('/api/auth/register-seller', {
        full_name: 'Lilla Ockupant',
        email: 'lilla.ockupant@raderskolan.se',
        password: PASSWORD,
        group_code: 'BJK6B2',
        under_13: true,
        guardian_email: 'mamma@raderad.invalid',
      }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(await errorOf(response)).toEqual({ status: 400, message: RESERVED });
    }
    expect(await rows(sql`select id from users where lower(email) like '%.invalid' and erased_at is null`)).toEqual([]);
  });

  it('erases an account whose old-style tombstone address someone took before the rule', async () => {
    const person = await register('Tore Tidig');
    const release = await squat(`borttagen-${person.userId}@raderad.invalid`);
    const response = await post('/api/account/delete', { password: PASSWORD }, person.token);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await erased(person.userId)).toBe(true);
    await release();
  });
});

describe('an erasure that cannot finish', () => {
  it('is a Swedish 409 for the person themself, and changes nothing', async () => {
    const person = await register('Stina Stoppad');
    const release = await squat(erasedEmail(person.userId));
    expect(await errorOf(await post('/api/account/delete', { password: PASSWORD }, person.token))).toEqual({
      status: 409,
      message: ERASURE_BLOCKED_MESSAGE,
    });
    expect(await erased(person.userId)).toBe(false);
    expect(await server.login(person.email, PASSWORD)).toBeTruthy();
    await release();
    expect((await post('/api/account/delete', { password: PASSWORD }, person.token)).status).toBe(200);
  });

  it("is a Swedish 409 for the superadmin's erasure", async () => {
    const person = await register('Sune Superstoppad');
    const release = await squat(erasedEmail(person.userId));
    expect(await errorOf(await post(`/api/admin/users/${person.userId}/erase`, {}, superToken))).toEqual({
      status: 409,
      message: ERASURE_BLOCKED_MESSAGE,
    });
    expect(await erased(person.userId)).toBe(false);
    await release();
    expect((await post(`/api/admin/users/${person.userId}/erase`, {}, superToken)).status).toBe(200);
  });

  it("is a Swedish 409 for a guardian's decline, and the code still works once the way is clear", async () => {
    const child = await register('Dagny Avböjd', { under_13: true, guardian_email: 'dagnys.mamma@raderskolan.se' });
    const code = await consentCode('dagnys.mamma@raderskolan.se', 'Dagny Avböjd');
    const release = await squat(erasedEmail(child.userId));
    expect(await errorOf(await post('/api/guardian/consent', { code, decision: 'decline' }))).toEqual({
      status: 409,
      message: ERASURE_BLOCKED_MESSAGE,
    });
    expect(await erased(child.userId)).toBe(false);
    await release();
    expect((await post('/api/guardian/consent', { code, decision: 'decline' })).status).toBe(200);
    expect(await erased(child.userId)).toBe(true);
  });

  it("is a Swedish 409 for a guardian's withdrawal", async () => {
    const child = await register('Vilgot Återkallad', { under_13: true, guardian_email: 'vilgots.pappa@raderskolan.se' });
    const code = await consentCode('vilgots.pappa@raderskolan.se', 'Vilgot Återkallad');
    const approved = await post('/api/guardian/consent', {
      code,
      decision: 'approve',
      account: 'new',
      full_name: 'Vilgots Pappa',
      email: 'vilgots.pappa@raderskolan.se',
      password: PASSWORD,
    });
    expect(approved.status, await approved.clone().text()).toBe(200);
    const { token } = (await approved.json()) as { token: string };
    const release = await squat(erasedEmail(child.userId));
    expect(await errorOf(await post(`/api/guardian/children/${child.userId}/withdraw`, {}, token))).toEqual({
      status: 409,
      message: ERASURE_BLOCKED_MESSAGE,
    });
    expect(await erased(child.userId)).toBe(false);
    await release();
    expect((await post(`/api/guardian/children/${child.userId}/withdraw`, {}, token)).status).toBe(200);
  });

  it('does not stop the retention job: the others are erased, the failure is counted, and the next run erases it', async () => {
    const [archived] = await rows<{ id: number }>(
      sql`insert into groups (name, code, archived) values ('Klass 9C 2022', 'ARK9C2', true) returning id`,
    );
    const inactive: number[] = [];
    for (const key of ['forst', 'sedan']) {
      const [row] = await rows<{ id: number }>(sql`
        insert into users (email, password_hash, full_name, last_sign_in_at, created_at)
        values (${`${key}@inaktiv.se`}, 'x', ${`Inaktiv ${key}`}, now() - interval '25 months', now() - interval '30 months')
        returning id`);
      await rows(sql`insert into memberships (user_id, group_id, role, link_code)
                     values (${row!.id}, ${archived!.id}, 'seller', ${`INAKTIV${row!.id}`})`);
      inactive.push(Number(row!.id));
    }
    const [blocked, other] = inactive as [number, number];
    const release = await squat(erasedEmail(blocked));

    const now = new Date();
    const first = await server.app.scheduledJobs.runJob('retention', now);
    expect(first).toMatchObject({ kind: 'ran', summary: { accountsErased: 1, accountsNotErased: 1 } });
    expect([await erased(blocked), await erased(other)]).toEqual([false, true]);

    await release();
    const next = await server.app.scheduledJobs.runJob('retention', new Date(now.getTime() + DAY));
    expect(next).toMatchObject({ kind: 'ran', summary: { accountsErased: 1, accountsNotErased: 0 } });
    expect(await erased(blocked)).toBe(true);
  });
});

describe('an erasure erases every mail to or about the person', () => {
  it('deletes the sent reset mail, its outbox file, mail still queued and the notice sent to an old address', async () => {
    const registered = await register('Erasmus Raderad');
    const changed = await post(
      '/api/account/change-email',
      { current_password: PASSWORD, new_email: 'erasmus.ny@raderskolan.se' },
      registered.token,
    );
    expect(changed.status, await changed.clone().text()).toBe(200);
    const person = { email: 'erasmus.ny@raderskolan.se', token: ((await changed.json()) as { token: string }).token };
    await eventually(() => server.mails().some((mail) => mail.to === registered.email));
    expect((await post('/api/auth/forgot-password', { email: person.email })).status).toBe(200);
    const resetSubject = 'Återställ ditt lösenord på Säljportalen';
    await eventually(() =>
      server.mails().some((mail) => mail.to === person.email && mail.subject === resetSubject && mail.text.includes('Hej Erasmus!')),
    );
    await eventually(
      async () =>
        (await rows(sql`select id from mail_outbox where "to" = ${person.email} and subject = ${resetSubject} and sent_at is not null`))
          .length > 0,
    );
    // A mail that waits for a retry, not yet sent.
    await rows(sql`insert into mail_outbox ("to", subject, text, next_attempt_at)
                   values (${person.email.toUpperCase()}, 'Väntar', 'Hej Erasmus!', now() + interval '1 hour')`);

    expect((await post('/api/account/delete', { password: PASSWORD }, person.token)).status).toBe(200);
    expect(await mailRowsMentioning(person.email)).toBe(0);
    expect(await mailRowsMentioning(registered.email)).toBe(0);
    expect(await mailRowsMentioning('Erasmus')).toBe(0);
    expect(outboxText()).not.toContain(person.email);
    expect(outboxText()).not.toContain(registered.email);
    expect(outboxText()).not.toContain('Erasmus');
  });

  it("deletes the consent mail about a declined child, and keeps the guardian's mail about another child", async () => {
    const guardian = 'syskonens.mamma@raderskolan.se';
    await register('Ebba Syskon', { under_13: true, guardian_email: guardian });
    await consentCode(guardian, 'Ebba Syskon');
    const declined = await register('Hugo Syskon', { under_13: true, guardian_email: guardian });
    const code = await consentCode(guardian, 'Hugo Syskon');

    expect((await post('/api/guardian/consent', { code, decision: 'decline' })).status).toBe(200);
    expect(await erased(declined.userId)).toBe(true);
    expect(await mailRowsMentioning('Hugo')).toBe(0);
    expect(outboxText()).not.toContain('Hugo');
    expect(await mailRowsMentioning('Ebba')).toBe(1);
    expect(server.mails().filter((mail) => mail.to === guardian && mail.text.includes('Ebba Syskon'))).toHaveLength(1);
  });

  it('has the retention job delete sent mail and outbox files older than 7 days, and keep the newer', async () => {
    const now = new Date(Date.now() + 5 * DAY);
    await rows(sql`insert into mail_outbox ("to", subject, text, sent_at, created_at) values
      ('gammal@raderskolan.se', 'Gammalt', 'Hej Gammal!', ${new Date(now.getTime() - 8 * DAY).toISOString()}::timestamptz, now()),
      ('nyare@raderskolan.se', 'Nyare', 'Hej Nyare!', ${new Date(now.getTime() - 6 * DAY).toISOString()}::timestamptz, now())`);
    const outbox = path.join(server.dataDir, 'outbox');
    fs.mkdirSync(outbox, { recursive: true });
    const oldFile = path.join(outbox, '2020-01-01T00-00-00-000Z-abcdef.json');
    const newFile = path.join(outbox, '2020-01-02T00-00-00-000Z-ghijkl.json');
    for (const file of [oldFile, newFile])
      fs.writeFileSync(file, JSON.stringify({ to: 'fil@raderskolan.se', subject: 'Fil', text: 'Hej!' }));
    fs.utimesSync(oldFile, new Date(now.getTime() - 8 * DAY), new Date(now.getTime() - 8 * DAY));
    fs.utimesSync(newFile, new Date(now.getTime() - 6 * DAY), new Date(now.getTime() - 6 * DAY));

    const outcome = await server.app.scheduledJobs.runJob('retention', now);
    expect(outcome).toMatchObject({ kind: 'ran', summary: { mailsDeleted: 1, mailFilesDeleted: 1 } });
    expect(await mailRowsMentioning('gammal@raderskolan.se')).toBe(0);
    expect(await mailRowsMentioning('nyare@raderskolan.se')).toBe(1);
    expect([fs.existsSync(oldFile), fs.existsSync(newFile)]).toEqual([false, true]);
  });
});
