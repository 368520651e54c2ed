/**
 * Issue 28, point 8: every export of personal data is audited. The routes that hand out a file are
 * listed here; the route table must declare exactly these as exports (`config.personalDataExport`,
 * modules/audit/personal-data-exports.ts), and a file from any other route is refused with a 500
 * (the permission matrix calls every route, so a new file route without its entry fails there). Each
 * export, called as a person who may, writes one audit entry naming who, which export and of what;
 * a HEAD request carries no file and writes none. On PGlite and PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupIdByCode, sqlRows } from './admin-fixtures.js';
import { registerChildWithGuardian } from './guardian-fixtures.js';
import { startTestServer, testDbKind, type TestServer } from './test-server.js';

let server: TestServer;
let context: { group: number; payout: number; noah: number; child: number };
const tokens: Record<string, string> = {};

interface Export {
  as: string;
  path: () => string;
  /** A file made by a POST (new sign-in slips make new codes), with its body; GET otherwise. */
  post?: () => unknown;
  action: string;
  targetType: string;
  targetId: () => string | null;
}

/** Every route that hands out personal data as a file, as whom it is tried, and the entry it must write. */
const EXPORTS: Record<string, Export> = {
  'GET /api/admin/payouts/export.csv': {
    as: 'admin@saljportalen.se',
    path: () => `/api/admin/payouts/export.csv?group_id=${context.group}`,
    action: 'payout.export_csv',
    targetType: 'payout',
    targetId: () => null,
  },
  'GET /api/admin/payouts/:id/export.pdf': {
    as: 'admin@saljportalen.se',
    path: () => `/api/admin/payouts/${context.payout}/export.pdf`,
    action: 'payout.export_pdf',
    targetType: 'payout',
    targetId: () => String(context.payout),
  },
  'GET /api/admin/group/:id/export': {
    as: 'admin@saljportalen.se',
    path: () => `/api/admin/group/${context.group}/export`,
    action: 'group.export',
    targetType: 'group',
    targetId: () => String(context.group),
  },
  'GET /api/account/export': {
    as: 'noah@demo.se',
    path: () => '/api/account/export',
    action: 'account.export',
    targetType: 'user',
    targetId: () => String(context.noah),
  },
  // Issue 31: the sign-in slips of the class-list pupils a test put in 6B.
  'POST /api/group/roster/slips': {
    as: 'larare@bjorkskolan.se',
    path: () => '/api/group/roster/slips',
    post: () => ({ group_id: context.group }),
    action: 'group.sign_in_slips',
    targetType: 'group',
    targetId: () => String(context.group),
  },
  // Issue 32: the class poster names the class and no person; it is audited as every file is.
  'GET /api/group/poster.pdf': {
    as: 'larare@bjorkskolan.se',
    path: () => `/api/group/poster.pdf?group_id=${context.group}`,
    action: 'group.poster_download',
    targetType: 'group',
    targetId: () => String(context.group),
  },
  'GET /api/catalog/me.pdf': {
    as: 'noah@demo.se',
    path: () => '/api/catalog/me.pdf',
    action: 'catalog.download',
    targetType: 'user',
    targetId: () => String(context.noah),
  },
  'GET /api/guardian/children/:id/catalog.pdf': {
    as: 'vardnadshavare@demo.se',
    path: () => `/api/guardian/children/${context.child}/catalog.pdf`,
    action: 'catalog.download',
    targetType: 'user',
    targetId: () => String(context.child),
  },
};

/** A pupil under 13 in 6B whose guardian approves with a new account; the pupil's user id. */
const childWithGuardian = (guardianEmail: string) =>
  registerChildWithGuardian(server, { childEmail: `export-barn-${Date.now()}@demo.se`, guardianEmail });

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  const group = await groupIdByCode(server.app.db, 'BJK6B2');
  const [payout] = await sqlRows<{ id: number }>(server.app.db, sql`select id from payouts order by id limit 1`);
  const [noah] = await sqlRows<{ id: number }>(server.app.db, sql`select id from users where email = 'noah@demo.se'`);
  const child = await childWithGuardian('vardnadshavare@demo.se');
  context = { group, payout: Number(payout!.id), noah: Number(noah!.id), child };
  for (const email of new Set(Object.values(EXPORTS).map((entry) => entry.as))) tokens[email] = await server.login(email);
  const roster = await server.request('POST', '/api/group/roster', {
    token: tokens['larare@bjorkskolan.se'],
    body: { group_id: group, pupils: [{ full_name: 'Lapp Elev' }] },
  });
  expect(roster.status).toBe(200);
}, 120_000);
afterAll(() => server.close());

const auditEntries = () =>
  sqlRows<{ id: number; actor_user_id: number | null; action: string; target_type: string; target_id: string | null }>(
    server.app.db,
    sql`select id, actor_user_id, action, target_type, target_id from audit_entries order by id`,
  );

describe(`exports of personal data (${testDbKind})`, () => {
  it('are exactly the routes listed here: a new one must say what it records', () => {
    expect([...server.personalDataExports].sort()).toEqual(Object.keys(EXPORTS).sort());
  });

  it('each write one audit entry: who, which export, of what; HEAD writes none', async () => {
    for (const [route, entry] of Object.entries(EXPORTS)) {
      const token = tokens[entry.as]!;
      const before = await auditEntries();
      if (!entry.post) {
        const head = await server.request('HEAD', entry.path(), { token });
        expect(head.status, `HEAD ${route}`).toBe(200);
        expect(await auditEntries(), `HEAD ${route}`).toHaveLength(before.length);
      }

      const response = entry.post
        ? await server.request('POST', entry.path(), { token, body: entry.post() })
        : await server.request('GET', entry.path(), { token });
      await response.arrayBuffer();
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-disposition'), route).toMatch(/^attachment; filename=/);
      const [actor] = await sqlRows<{ id: number }>(server.app.db, sql`select id from users where email = ${entry.as}`);
      const written = (await auditEntries()).slice(before.length);
      expect(written, route).toEqual([
        {
          id: expect.anything(),
          actor_user_id: Number(actor!.id),
          action: entry.action,
          target_type: entry.targetType,
          target_id: entry.targetId(),
        },
      ]);
    }
  });

  it('are not sent when their entry cannot be written', async () => {
    // The entry's table refuses inserts for this test: the file must not go out without its entry.
    await server.app.db.execute(sql`create or replace function refuse_audit() returns trigger language plpgsql as $$
      begin raise exception 'granskning avstängd'; end $$`);
    await server.app.db.execute(
      sql`create trigger refuse_audit before insert on audit_entries for each row execute function refuse_audit()`,
    );
    try {
      const response = await server.request('GET', EXPORTS['GET /api/admin/group/:id/export']!.path(), {
        token: tokens['admin@saljportalen.se'],
      });
      expect(response.status).toBe(500);
      expect(response.headers.get('content-disposition')).toBeNull();
      expect(await response.json()).toMatchObject({ error: { code: 'INTERNAL' } });
    } finally {
      await server.app.db.execute(sql`drop trigger refuse_audit on audit_entries`);
    }
  });
});
