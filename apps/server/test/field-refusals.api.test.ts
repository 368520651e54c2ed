/**
 * Issue 33 point 3: a refusal about one field of a form names the field in `error.details`, so the
 * form shows the message beside it: a wrong group code, an address already registered or in use, a
 * wrong password. The class, not one case: every refusal below is made through the real calls.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_LIMITS } from '@saljportalen/contract';
import { groupIdByCode, sellerEmailsOf } from './admin-fixtures.js';
import { DEMO_TEST_PASSWORD, eventually, startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
let sellers: string[];
beforeAll(async () => {
  server = await startTestServer({ seed: true });
  sellers = await sellerEmailsOf(server.app.db, 'SCT482');
});
afterAll(() => server.close());

interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
  details?: { field?: string; message: string }[];
}

async function refusal(response: Response): Promise<ErrorAnswer> {
  const { error } = (await response.json()) as { error: Omit<ErrorAnswer, 'status'> };
  return { status: response.status, ...error };
}

/** The refusal names exactly this field, with the refusal's own message. */
function expectAtField(answer: ErrorAnswer, field: string) {
  expect(answer.details).toEqual([{ field, message: answer.message }]);
}

const registration = (changes: Record<string, unknown>) => ({
  full_name: 'Fält Testsson',
  email: `falt-${Math.random().toString(36).slice(2)}@demo.se`,
  password: 'hemligt123',
  group_code: 'SCT482',
  under_13: false,
  ...changes,
});

describe('registration', () => {
  it('names the group code when no group has it', async () => {
    const answer = await refusal(
      await server.request('POST', '/api/auth/register-seller', { body: registration({ group_code: 'ZZZ999' }) }),
    );
    expect(answer).toMatchObject({ status: 400, message: 'Okänd gruppkod. Kontrollera koden med din lärare eller ledare.' });
    expectAtField(answer, 'group_code');
  });

  it('names the group code when its group is archived', async () => {
    const groupId = await groupIdByCode(server.app.db, 'SCT482');
    await server.app.db.execute(sql`update groups set archived = true where id = ${groupId}`);
    try {
      const answer = await refusal(await server.request('POST', '/api/auth/register-seller', { body: registration({}) }));
      expect(answer.message).toBe('Gruppen är arkiverad och tar inte emot nya säljare.');
      expectAtField(answer, 'group_code');
    } finally {
      await server.app.db.execute(sql`update groups set archived = false where id = ${groupId}`);
    }
  });

  it('names the address when it is already registered', async () => {
    const answer = await refusal(await server.request('POST', '/api/auth/register-seller', { body: registration({ email: sellers[0] }) }));
    expect(answer).toMatchObject({ status: 409, code: 'EMAIL_TAKEN' });
    expectAtField(answer, 'email');
  });

  it('names every field the contract refuses, by its name in the body', async () => {
    const answer = await refusal(
      await server.request('POST', '/api/auth/register-seller', { body: registration({ email: 'inte-en-adress', password: 'kort' }) }),
    );
    expect(answer.status).toBe(400);
    expect(answer.details?.map((issue) => issue.field).sort()).toEqual(['email', 'password']);
  });

  it('names the limit of a field too long, the limit the web’s input carries (TEXT_LIMITS)', async () => {
    const answer = await refusal(
      await server.request('POST', '/api/auth/register-seller', { body: registration({ full_name: 'Å'.repeat(TEXT_LIMITS.name + 1) }) }),
    );
    expect(answer.details).toEqual([{ field: 'full_name', message: `Namnet får vara högst ${TEXT_LIMITS.name} tecken` }]);
  });
});

describe('account settings', () => {
  it('names the current password when it is wrong, in both forms that ask for it', async () => {
    const token = await server.login(sellers[1]!);
    const password = await refusal(
      await server.request('POST', '/api/account/change-password', {
        token,
        body: { current_password: 'fel-lösenord', new_password: 'nytt-losen-123' },
      }),
    );
    expect(password).toMatchObject({ status: 400, message: 'Nuvarande lösenord är fel' });
    expectAtField(password, 'current_password');

    const email = await refusal(
      await server.request('POST', '/api/account/change-email', {
        token,
        body: { new_email: 'ny-adress@demo.se', current_password: 'fel-lösenord' },
      }),
    );
    expectAtField(email, 'current_password');
  });

  it('names the new address when another account has it', async () => {
    const token = await server.login(sellers[2]!);
    const answer = await refusal(
      await server.request('POST', '/api/account/change-email', {
        token,
        body: { new_email: sellers[3], current_password: DEMO_TEST_PASSWORD },
      }),
    );
    expect(answer).toMatchObject({ status: 409, message: 'E-postadressen används redan av ett annat konto' });
    expectAtField(answer, 'new_email');
  });

  it('names the password when deleting the account with a wrong one', async () => {
    const token = await server.login(sellers[4]!);
    const answer = await refusal(await server.request('POST', '/api/account/delete', { token, body: { password: 'fel-lösenord' } }));
    expect(answer.message).toBe('Lösenordet är fel');
    expectAtField(answer, 'password');
  });
});

describe('the guardian and the operator', () => {
  it("names the password when a guardian's existing account gets a wrong one", async () => {
    const guardianEmail = `falt-vh-${Math.random().toString(36).slice(2)}@demo.se`;
    const registered = await server.request('POST', '/api/auth/register-seller', {
      body: registration({ group_code: 'BJK6B2', under_13: true, guardian_email: guardianEmail }),
    });
    expect(registered.status).toBe(200);
    const mail = await eventually(() => server.mails().find((candidate) => candidate.to === guardianEmail && candidate.link));
    const code = new URL(mail.link!).searchParams.get('code')!;
    const answer = await refusal(
      await server.request('POST', '/api/guardian/consent', {
        body: { code, decision: 'approve', account: 'existing', email: guardianEmail, password: 'fel-lösenord' },
      }),
    );
    expect(answer).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expectAtField(answer, 'password');
  });

  it('names the name of a new user and the end of a payout period', async () => {
    const token = await server.login('admin@saljportalen.se');
    const groupId = await groupIdByCode(server.app.db, 'SCT482');
    const user = await refusal(
      await server.request('POST', `/api/admin/groups/${groupId}/add-user`, {
        token,
        body: { email: `falt-ny-${Math.random().toString(36).slice(2)}@demo.se`, role: 'seller' },
      }),
    );
    expectAtField(user, 'full_name');

    const payout = await refusal(
      await server.request('POST', '/api/admin/payouts', { token, body: { group_id: groupId, from: '2026-02-01', to: '2026-01-01' } }),
    );
    expect(payout.message).toBe('Från-datum kan inte vara efter Till-datum.');
    expectAtField(payout, 'to');
  });

  it('says nothing of fields when a refusal is about no field', async () => {
    const answer = await refusal(
      await server.request('POST', '/api/auth/login', { body: { email: sellers[0], password: 'fel-lösenord' } }),
    );
    expect(answer.status).toBe(401);
    expect(answer.details).toBeUndefined();
  });
});
