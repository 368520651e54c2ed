import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { sqlRows } from './admin-fixtures.js';
import { DEMO_TEST_PASSWORD, eventually, type TestServer } from './test-server.js';

/**
 * Registers a pupil under 13 in 6B (`BJK6B2`) through the real calls, and has the guardian approve
 * from the consent mail's link with a new account or their existing one (of the invited address,
 * decision 051); the pupil's user id.
 */
export async function registerChildWithGuardian(
  server: TestServer,
  { childEmail, guardianEmail, account = 'new' }: { childEmail: string; guardianEmail: string; account?: 'new' | 'existing' },
): Promise<number> {
  const registered = await server.request('POST', '/api/auth/register-seller', {
    body: {
      full_name: 'Test Barn',
      email: childEmail,
      password: 'hemligt123',
      group_code: 'BJK6B2',
      under_13: true,
      guardian_email: guardianEmail,
    },
  });
  expect(registered.status, await registered.clone().text()).toBe(200);
  const [user] = await sqlRows<{ id: number }>(server.app.db, sql`select id from users where email = ${childEmail}`);
  const mail = await eventually(() =>
    server
      .mails()
      .filter((candidate) => candidate.to === guardianEmail && candidate.link?.includes('/vardnadshavare/godkann'))
      .at(-1),
  );
  const code = new URL(mail.link!).searchParams.get('code')!;
  const approved = await server.request('POST', '/api/guardian/consent', {
    body: { code, decision: 'approve', account, full_name: 'Test Vårdnadshavare', email: guardianEmail, password: DEMO_TEST_PASSWORD },
  });
  expect(approved.status, await approved.clone().text()).toBe(200);
  return Number(user!.id);
}
