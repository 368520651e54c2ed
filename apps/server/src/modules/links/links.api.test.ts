import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sqlRows } from '../../../test/admin-fixtures.js';

let server: TestServer;
let noah: { membershipId: number; linkCode: string };

async function clicks(membershipId: number): Promise<number> {
  const [row] = await sqlRows<{ n: number }>(
    server.app.db,
    sql`select count(*)::int as n from link_clicks where membership_id = ${membershipId}`,
  );
  return row!.n;
}

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  const [row] = await sqlRows<{ id: number; link_code: string }>(
    server.app.db,
    sql`select m.id, m.link_code from memberships m join users u on u.id = m.user_id where u.email = 'noah@demo.se'`,
  );
  noah = { membershipId: row!.id, linkCode: row!.link_code };
});
afterAll(() => server.close());

describe('GET /s/{code}', () => {
  it('records the click and redirects to the shop carrying the code', async () => {
    const before = await clicks(noah.membershipId);
    const redirect = await fetch(`${server.url}/s/${noah.linkCode}`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(`https://butik.example.se/?ref=${noah.linkCode}`);
    expect(redirect.headers.get('cache-control')).toBe('no-store');
    expect(await clicks(noah.membershipId)).toBe(before + 1);
  });

  it('takes a code typed in lower case, and does not count a HEAD request', async () => {
    const before = await clicks(noah.membershipId);
    const lower = await fetch(`${server.url}/s/${noah.linkCode.toLowerCase()}`, { redirect: 'manual' });
    expect(lower.headers.get('location')).toBe(`https://butik.example.se/?ref=${noah.linkCode}`);
    const head = await fetch(`${server.url}/s/${noah.linkCode}`, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(302);
    expect(await clicks(noah.membershipId)).toBe(before + 1);
  });

  it('answers an unknown code with a friendly Swedish page, status 404, and records nothing', async () => {
    const [{ n: before }] = (await sqlRows<{ n: number }>(server.app.db, sql`select count(*)::int as n from link_clicks`)) as [
      { n: number },
    ];
    for (const code of ['FINNSINTE', 'x%3Cscript%3E', '%20']) {
      const response = await fetch(`${server.url}/s/${code}`, { redirect: 'manual' });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('text/html');
      const page = await response.text();
      expect(page).toContain('<html lang="sv">');
      expect(page).toContain('Länken hittades inte');
      expect(page).toContain('href="https://butik.example.se/"');
      expect(page).not.toContain('<script');
      expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
    }
    const [{ n: after }] = (await sqlRows<{ n: number }>(server.app.db, sql`select count(*)::int as n from link_clicks`)) as [
      { n: number },
    ];
    expect(after).toBe(before);
  });
});
