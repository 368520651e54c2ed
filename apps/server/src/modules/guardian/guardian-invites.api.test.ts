import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_WEB_ADDRESS_MESSAGE } from '@saljportalen/contract';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/test-server.js';
import { GUARDIAN_INVITE_LIMITS } from '../auth/invite-limits.js';

/**
 * Issue 28, point 3: registration sends no mass mail. Consent mails are limited per guardian
 * address and per group (with the limits on, as in production), a name with a web address is
 * refused, and the consent mail opens with the portal's words, never with the child's name.
 */
let server: TestServer;
let counter = 0;

beforeAll(async () => {
  server = await startTestServer({ seed: true, env: { RATE_LIMITS: '1' } });
});
afterAll(() => server.close());

const register = (guardianEmail: string, options: { name?: string; groupCode?: string } = {}) => {
  counter += 1;
  return server.request('POST', '/api/auth/register-seller', {
    body: {
      full_name: options.name ?? `Barn ${counter}`,
      email: `inbjudan-${counter}@demo.se`,
      password: 'hemligt123',
      group_code: options.groupCode ?? 'BJK6B2',
      under_13: true,
      guardian_email: guardianEmail,
    },
  });
};
const consentMailsTo = (address: string) => server.mails().filter((mail) => mail.to === address && mail.link?.includes('/vardnadshavare/'));
const message = async (response: Response) => ((await response.json()) as { error: { message: string } }).error.message;

describe('consent mails from registration', () => {
  it('reach one address three times a day however it is spelt; the rest are refused whole with 429 in Swedish', async () => {
    const spellings = ['offer@demo.se', 'OFFER@demo.se', ' offer+1@demo.se', 'offer+vinn@demo.se'];
    const responses = await Promise.all(Array.from({ length: 12 }, (_, index) => register(spellings[index % spellings.length]!)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(3).fill(200), ...Array(9).fill(429)]);
    const refused = responses.find((response) => response.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    expect(await message(refused)).toMatch(/Vårdnadshavarens e-postadress har redan fått 3 mejl.*Kontot har inte skapats/);

    await eventually(() => (server.mails().filter((mail) => mail.to.toLowerCase().includes('offer')).length >= 3 ? true : undefined));
    expect(server.mails().filter((mail) => mail.to.toLowerCase().trim().replace(/\+.*@/, '@') === 'offer@demo.se')).toHaveLength(3);
    // Refused means nothing stored: no account waits for a mail that was never sent.
    const [links] = await sqlRows<{ n: number }>(
      server.app.db,
      sql`select count(*)::int as n from guardian_links where lower(guardian_email) like '%offer%'`,
    );
    expect(Number(links!.n)).toBe(3);

    // Another family is not held back.
    expect((await register('annan.familj@demo.se')).status).toBe(200);
  });

  it(`leave a group ${GUARDIAN_INVITE_LIMITS.group.max} times an hour, and no more, whatever the addresses`, async () => {
    const max = GUARDIAN_INVITE_LIMITS.group.max;
    for (let start = 0; start < max; start += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, index) => register(`scout-${start + index}@demo.se`, { groupCode: 'SCT482' })),
      );
      expect(batch.map((response) => response.status)).toEqual(Array(10).fill(200));
    }
    const refused = await register('scout-en-till@demo.se', { groupCode: 'SCT482' });
    expect(refused.status).toBe(429);
    expect(await message(refused)).toContain('Många i gruppen');
    expect(consentMailsTo('scout-en-till@demo.se')).toEqual([]);
    // A pupil of 13 or over in that group still registers: only consent mails are counted.
    const older = await server.request('POST', '/api/auth/register-seller', {
      body: { full_name: 'Stor Scout', email: 'stor.scout@demo.se', password: 'hemligt123', group_code: 'SCT482', under_13: false },
    });
    expect(older.status).toBe(200);
  });
});

describe('names in registration and in the consent mail', () => {
  it('refuse a name with a web address with a Swedish message, and mail nobody', async () => {
    for (const name of ['Vinn 5000 kr! Logga in på https://exempel.se', 'Elsa www.exempel.se', 'Elsa exempel.se/x']) {
      const response = await register('mottagare@demo.se', { name });
      expect(response.status, name).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(NAME_WEB_ADDRESS_MESSAGE);
    }
    expect(consentMailsTo('mottagare@demo.se')).toEqual([]);
  });

  it('open with the portal’s words: the child’s name is neither the subject nor the first line', async () => {
    expect((await register('mamma.spam@demo.se', { name: 'Vinn 5000 kr Logga in nu' })).status).toBe(200);
    const mail = await eventually(() => consentMailsTo('mamma.spam@demo.se')[0]);
    expect(mail.subject).toBe('Ett barn vill gå med i Säljportalen – ditt godkännande behövs');
    const [greeting, first] = mail.text.split('\n\n');
    expect(greeting).toBe('Hej!');
    expect(first).toMatch(/^Ett barn har skapat ett konto på Säljportalen med namnet ”Vinn 5000 kr Logga in nu”/);
  });
});
