import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAddGroupUserResponse, TCreateGroupResponse } from '@saljportalen/contract';
import { groupIdByCode, sqlRows } from '../../../test/admin-fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/test-server.js';
import { RESET_CODE_TTL_MINUTES } from '../auth/password-reset.js';

/** Issue 19: the welcome mail's 'Välj lösenord' link, and every mail's HTML part. */
let server: TestServer;
let token: string;

const call = (path: string, body: unknown, bearer: string | undefined = token) => server.request('POST', path, { token: bearer, body });
async function ok<T>(response: Response): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}
const mailTo = (address: string, subject: string) => {
  const found = server.mails().filter((mail) => mail.to === address && mail.subject === subject);
  expect(found, `mejl till ${address}: ${subject}`).toHaveLength(1);
  return found[0]!;
};
const codeOf = (link: string) => new URL(link).searchParams.get('code')!;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  token = await server.login('admin@saljportalen.se');
});
afterAll(() => server.close());

describe('the welcome mail of a new user', () => {
  it('carries a single-use link that lets the person choose a password and sign in', async () => {
    const groupId = await groupIdByCode(server.app.db, 'SCT482');
    const added = await ok<TAddGroupUserResponse>(
      await call(`/api/admin/groups/${groupId}/add-user`, { email: 'vera.valkommen@demo.se', role: 'seller', full_name: 'Vera Välkommen' }),
    );
    expect(added.user.is_new_user).toBe(true);
    const mail = mailTo('vera.valkommen@demo.se', 'Välkommen till Säljportalen');
    expect(mail.link).toMatch(/^http:\/\/localhost:3000\/auth\/reset-password\?code=[^&]+&valkommen=1$/);
    expect(mail.text).toContain(`${RESET_CODE_TTL_MINUTES} minuter`);
    const code = codeOf(mail.link!);

    expect((await call('/api/auth/reset-password/verify', { code }, undefined)).status).toBe(200);
    expect((await call('/api/auth/reset-password', { code, new_password: 'mitt-eget-losen' }, undefined)).status).toBe(200);
    expect(await server.login('vera.valkommen@demo.se', 'mitt-eget-losen')).toBeTruthy();

    // Spent: the same link never sets the password again.
    const again = await call('/api/auth/reset-password', { code, new_password: 'nagon-annans-losen' }, undefined);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: { code: 'VALIDATION', message: 'Ogiltig återställningslänk' } });
    expect(
      (await server.request('POST', '/api/auth/login', { body: { email: 'vera.valkommen@demo.se', password: 'nagon-annans-losen' } }))
        .status,
    ).toBe(401);
  });

  it('expires as a reset code does', async () => {
    const groupId = await groupIdByCode(server.app.db, 'SCT482');
    await ok(
      await call(`/api/admin/groups/${groupId}/add-user`, { email: 'sen.oppnare@demo.se', role: 'seller', full_name: 'Sen Öppnare' }),
    );
    const code = codeOf(mailTo('sen.oppnare@demo.se', 'Välkommen till Säljportalen').link!);
    await server.app.db.execute(sql`
      update password_reset_codes
      set created_at = created_at - make_interval(mins => ${RESET_CODE_TTL_MINUTES + 1}),
          expires_at = expires_at - make_interval(mins => ${RESET_CODE_TTL_MINUTES + 1})
      where user_id = (select id from users where email = 'sen.oppnare@demo.se')`);
    expect((await call('/api/auth/reset-password/verify', { code }, undefined)).status).toBe(400);
    expect((await call('/api/auth/reset-password', { code, new_password: 'for-sent-123' }, undefined)).status).toBe(400);
    // The way back is the ordinary reset, which the expired mail names.
    expect(mailTo('sen.oppnare@demo.se', 'Välkommen till Säljportalen').text).toContain('http://localhost:3000/auth/forgot-password');
  });

  it('lets a new group administrator keep the password the superadmin chose, or choose their own', async () => {
    const created = await ok<TCreateGroupResponse>(
      await call('/api/admin/groups/create', {
        group_name: 'Klass 5A Ekbacken',
        admin: { email: 'ny.larare@ekbacken.se', password: 'given-av-admin', full_name: 'Nora Lärare' },
      }),
    );
    expect(created.admin?.is_new_user).toBe(true);
    expect(await server.login('ny.larare@ekbacken.se', 'given-av-admin')).toBeTruthy();
    const mail = mailTo('ny.larare@ekbacken.se', 'Välkommen till Säljportalen');
    expect(mail.text).toContain('Lösenordet får du av den som skapade gruppen');
    expect(mail.text).not.toContain('given-av-admin');
    expect(mail.html).not.toContain('given-av-admin');
    const code = codeOf(mail.link!);
    expect((await call('/api/auth/reset-password', { code, new_password: 'eget-val-456' }, undefined)).status).toBe(200);
    expect(await server.login('ny.larare@ekbacken.se', 'eget-val-456')).toBeTruthy();
  });

  it('is not sent to someone who already has an account', async () => {
    const groupId = await groupIdByCode(server.app.db, 'SCT482');
    const before = server.mails().length;
    await ok(await call(`/api/admin/groups/${groupId}/add-user`, { email: 'noah@demo.se', role: 'seller' }));
    expect(server.mails()).toHaveLength(before);
    const codes = await sqlRows<{ id: number }>(
      server.app.db,
      sql`select id from password_reset_codes where user_id = (select id from users where email = 'noah@demo.se')`,
    );
    expect(codes).toEqual([]);
  });
});

describe('every mail', () => {
  it('has an HTML part beside its text part, saying the same', async () => {
    expect((await call('/api/auth/forgot-password', { email: 'elsa@demo.se' }, undefined)).status).toBe(200);
    const sent = await eventually(() => {
      const mails = server.mails();
      return mails.some((mail) => mail.to === 'elsa@demo.se') ? mails : undefined;
    });
    expect(sent.length).toBeGreaterThanOrEqual(5);
    // Welcome mails, reset mails and account-change notices alike.
    expect(new Set(sent.map((mail) => mail.subject))).toEqual(
      new Set(['Välkommen till Säljportalen', 'Återställ ditt lösenord på Säljportalen', 'Ditt lösenord på Säljportalen har ändrats']),
    );
    for (const mail of sent) {
      expect(mail.html, mail.subject).toMatch(/^<!doctype html>\n<html lang="sv">/);
      expect(mail.html).toContain(`<title>${mail.subject}</title>`);
      const greeting = mail.text.split('\n')[0]!;
      expect(mail.html).toContain(`>${greeting}</h1>`);
      if (mail.link) expect(mail.html).toContain(`href="${mail.link.replaceAll('&', '&amp;')}"`);
    }
  });
});
