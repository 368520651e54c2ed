import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { stockholmDate } from '../../lib/dates.js';
import { linkClicksPerDay } from './link-clicks-per-day.js';

let server: TestServer;
let noah: { membershipId: number; linkCode: string };

async function clicks(membershipId: number): Promise<number> {
  const [row] = await sqlRows<{ n: number }>(
    server.app.db,
    sql`select coalesce(sum(clicks), 0)::int as n from link_clicks_per_day where membership_id = ${membershipId}`,
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
  it('records the click and answers the page before the shop, whose button carries the code', async () => {
    const before = await clicks(noah.membershipId);
    const page = await fetch(`${server.url}/s/${noah.linkCode}`, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`href="https://butik.example.se/?ref=${noah.linkCode}"`);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await clicks(noah.membershipId)).toBe(before + 1);
  });

  it('answers an unknown code with a friendly Swedish page, status 404, that leads nowhere and records nothing', async () => {
    const [{ n: before }] = (await sqlRows<{ n: number }>(
      server.app.db,
      sql`select coalesce(sum(clicks), 0)::int as n from link_clicks_per_day`,
    )) as [{ n: number }];
    for (const code of ['FINNSINTE', 'x%3Cscript%3E', '%20']) {
      const response = await fetch(`${server.url}/s/${code}`, { redirect: 'manual' });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('text/html');
      const page = await response.text();
      expect(page).toContain('<html lang="sv">');
      expect(page).toContain('Länken hittades inte');
      expect(page).not.toContain('href=');
      expect(page).not.toContain('<script');
      expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; connect-src 'self'; style-src 'sha256-/);
    }
    const [{ n: after }] = (await sqlRows<{ n: number }>(
      server.app.db,
      sql`select coalesce(sum(clicks), 0)::int as n from link_clicks_per_day`,
    )) as [{ n: number }];
    expect(after).toBe(before);
  });
});

describe('link clicks per day', () => {
  it('keeps one count per link and Stockholm day, and nothing about the visitor', async () => {
    const before = await clicks(noah.membershipId);
    await fetch(`${server.url}/s/${noah.linkCode}`, { redirect: 'manual', headers: { 'user-agent': 'Spårbar/1.0' } });
    await fetch(`${server.url}/s/${noah.linkCode}`, { redirect: 'manual' });
    const rows = await linkClicksPerDay(server.app.db, [noah.membershipId]);
    const today = stockholmDate(new Date());
    expect(rows.find((row) => row.day === today)).toEqual({ membershipId: noah.membershipId, day: today, clicks: before + 2 });
    // The table has no column for who came, from where or when in the day.
    const columns = await sqlRows<{ column_name: string }>(
      server.app.db,
      sql`select column_name from information_schema.columns where table_name = 'link_clicks_per_day' order by column_name`,
    );
    expect(columns.map((column) => column.column_name)).toEqual(['clicks', 'day', 'membership_id']);
    expect(await linkClicksPerDay(server.app.db, [])).toEqual([]);
  });
});

describe('migration 0013', () => {
  it('turns every stored click into a count on its link and Stockholm day, then drops the per-click table', async () => {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations/0013_link-clicks-per-day.sql');
    const statements = fs
      .readFileSync(file, 'utf8')
      .split('--> statement-breakpoint')
      .filter((statement) => /link_clicks"/.test(statement));
    expect(statements).toHaveLength(2);
    const [other] = await sqlRows<{ id: number }>(
      server.app.db,
      sql`select m.id from memberships m join users u on u.id = m.user_id where u.email = 'elsa@demo.se' limit 1`,
    );
    // The table as 0000 made it, with clicks on both sides of a Stockholm midnight (23:30 UTC in winter is 00:30 there).
    await server.app.db.execute(
      sql`create table link_clicks (id bigint generated always as identity primary key, membership_id integer not null, clicked_at timestamptz not null default now())`,
    );
    await server.app.db.execute(sql`insert into link_clicks (membership_id, clicked_at) values
      (${noah.membershipId}, '2025-01-10T10:00:00Z'), (${noah.membershipId}, '2025-01-10T22:59:00Z'),
      (${noah.membershipId}, '2025-01-10T23:30:00Z'), (${other!.id}, '2025-01-10T12:00:00Z')`);
    for (const statement of statements) await server.app.db.execute(sql.raw(statement));
    const moved = await linkClicksPerDay(server.app.db, [noah.membershipId, other!.id]);
    expect(moved.filter((row) => row.day.startsWith('2025-'))).toEqual(
      [
        { membershipId: noah.membershipId, day: '2025-01-10', clicks: 2 },
        { membershipId: noah.membershipId, day: '2025-01-11', clicks: 1 },
        { membershipId: other!.id, day: '2025-01-10', clicks: 1 },
      ].sort((a, b) => a.membershipId - b.membershipId),
    );
    const [gone] = await sqlRows<{ present: boolean }>(server.app.db, sql`select to_regclass('link_clicks') is not null as present`);
    expect(gone?.present).toBe(false);
  });
});
