/**
 * Issue 8, account safety mails: after a password reset, a password change and an e-mail change
 * (to the old address too) the owner gets a Swedish notice; a mail that fails never fails the change.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sellerEmailsOf } from '../../../test/admin-fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let scouts: string[];
beforeAll(async () => {
  server = await startTestServer({ seed: true });
  scouts = await sellerEmailsOf(server.app.db, 'SCT482');
});
afterAll(() => server.close());

const mailsTo = (address: string, subject: string) => server.mails().filter((mail) => mail.to === address && mail.subject === subject);
const PASSWORD_CHANGED = 'Ditt lösenord på Säljportalen har ändrats';

/** The one mail to that address with that subject, once it has been written. */
async function mailTo(address: string, subject: string) {
  const found = await eventually(() => {
    const mails = mailsTo(address, subject);
    return mails.length > 0 ? mails : null;
  });
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('account safety mails', () => {
  it('tells the owner after a password change, without the password', async () => {
    const email = scouts[0]!;
    const token = await server.login(email);
    const response = await server.request('POST', '/api/account/change-password', {
      token,
      body: { current_password: 'demo1234', new_password: 'nytt-losen-123' },
    });
    expect(response.status).toBe(200);
    const mail = await mailTo(email, PASSWORD_CHANGED);
    expect(mail.text).toContain('ändrades');
    expect(mail.text).toContain('under Kontoinställningar');
    expect(mail.text).toContain('http://localhost:3000/auth/forgot-password');
    expect(mail.text).not.toContain('nytt-losen-123');
  });

  it('sends nothing when the change is refused', async () => {
    const email = scouts[1]!;
    const token = await server.login(email);
    const before = server.mails().length;
    const wrong = await server.request('POST', '/api/account/change-password', {
      token,
      body: { current_password: 'fel-lösenord', new_password: 'nytt-losen-123' },
    });
    expect(wrong.status).toBe(400);
    const taken = await server.request('POST', '/api/account/change-email', {
      token,
      body: { current_password: 'demo1234', new_email: 'elsa@demo.se' },
    });
    expect(taken.status).toBe(409);
    // Whatever the server might still send would have been written by the time a later request is answered.
    await server.request('GET', '/api/health');
    expect(server.mails().length).toBe(before);
  });

  it('tells both the old and the new address after an e-mail change', async () => {
    const oldEmail = scouts[2]!;
    const token = await server.login(oldEmail);
    const response = await server.request('POST', '/api/account/change-email', {
      token,
      body: { current_password: 'demo1234', new_email: 'Scout.Flyttad@demo.se' },
    });
    expect(response.status).toBe(200);
    const toOld = await mailTo(oldEmail, 'E-postadressen till ditt konto på Säljportalen har ändrats');
    const toNew = await mailTo('Scout.Flyttad@demo.se', 'Det här är nu e-postadressen till ditt konto på Säljportalen');
    expect(toOld.text).toContain('till S•••@demo.se');
    expect(toOld.text).toContain('Kontakta gruppens administratör');
    expect(toNew.text).toContain('Du loggar in med den från och med nu');
  });

  it('tells the owner after a password reset, without the link or its code', async () => {
    const email = scouts[3]!;
    await server.request('POST', '/api/auth/forgot-password', { body: { email } });
    const resetMail = await eventually(() =>
      server.mails().find((mail) => mail.to === email && mail.link?.includes('/auth/reset-password')),
    );
    const code = new URL(resetMail.link!).searchParams.get('code')!;
    const reset = await server.request('POST', '/api/auth/reset-password', { body: { code, new_password: 'aterstallt-123' } });
    expect(reset.status).toBe(200);
    const mail = await mailTo(email, PASSWORD_CHANGED);
    expect(mail.text).toContain('med en återställningslänk');
    expect(mail.text).toContain('loggats ut på alla enheter');
    expect(mail.text).not.toContain(code);
    expect(mail.link).toBe('http://localhost:3000/auth/forgot-password');
  });

  it('completes the change when the mail cannot be sent', async () => {
    const email = scouts[4]!;
    const token = await server.login(email);
    const send = vi.spyOn(server.app.mailer, 'send').mockRejectedValue(new Error('connect ECONNREFUSED 127.0.0.1:25'));
    try {
      const response = await server.request('POST', '/api/account/change-password', {
        token,
        body: { current_password: 'demo1234', new_password: 'utan-mejl-123' },
      });
      expect(response.status).toBe(200);
      await eventually(() => send.mock.calls.length === 1);
    } finally {
      send.mockRestore();
    }
    expect(await server.login(email, 'utan-mejl-123')).toBeTruthy();
  });
});
