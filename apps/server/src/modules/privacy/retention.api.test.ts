/**
 * The retention job (issue 22, point 5), step by step on a chosen clock, through the scheduler as
 * the server runs it: `app.scheduledJobs.runJob('retention', now)`.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrder, membershipOf, sqlRows } from '../../../test/admin-fixtures.js';
import { sendShopifyWebhook, swedishOrder } from '../../../test/shopify-webhooks.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { replayWebhookEvents } from '../shopify/replay-webhook-events.js';

let server: TestServer;
const now = new Date();
const monthsAgo = (months: number) => {
  const then = new Date(now);
  then.setUTCMonth(then.getUTCMonth() - months);
  return then.toISOString();
};
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
const inMinutes = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

const query = <T>(statement: ReturnType<typeof sql>) => sqlRows<T>(server.app.db, statement);
const BUYER = ['Astrid', 'Lindgren', 'exempel.se', 'Dalagatan', '070-123', '192.0.2.7'];

let archivedGroup: number;
let liveGroup: number;
const people: Record<string, number> = {};
let erasedMembership: { id: number; groupId: number; linkCode: string };
/** A pupil seen last month: their link's old counts go, the newer stay (an erased account's all go). */
let recentMembership: { id: number; groupId: number; linkCode: string };
let groupSalesBefore: number;
let summary: Record<string, unknown>;

async function user(key: string, options: { lastSignIn?: string | null; createdAt?: string; superadmin?: boolean } = {}) {
  const [row] = await query<{ id: number }>(sql`
    insert into users (email, password_hash, full_name, phone, is_superadmin, last_sign_in_at, created_at)
    values (${`${key}@retention.se`}, 'x', ${`Person ${key}`}, '070-000 00 00', ${options.superadmin ?? false},
            ${options.lastSignIn ?? null}::timestamptz, ${options.createdAt ?? monthsAgo(30)}::timestamptz)
    returning id`);
  people[key] = Number(row!.id);
  return people[key]!;
}

async function member(userId: number, groupId: number, role: 'seller' | 'admin' = 'seller') {
  const code = `RET${userId}G${groupId}`;
  const [row] = await query<{ id: number }>(sql`
    insert into memberships (user_id, group_id, role, link_code) values (${userId}, ${groupId}, ${role}, ${code}) returning id`);
  return { id: Number(row!.id), groupId, linkCode: code };
}

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  const [archived] = await query<{ id: number }>(
    sql`insert into groups (name, code, archived) values ('Klass 9A 2023', 'ARK9A3', true) returning id`,
  );
  const [live] = await query<{ id: number }>(sql`insert into groups (name, code) values ('Klass 7C', 'LEV7C1') returning id`);
  archivedGroup = Number(archived!.id);
  liveGroup = Number(live!.id);

  // Accounts: who goes and who stays.
  erasedMembership = await member(await user('gammal', { lastSignIn: monthsAgo(25) }), archivedGroup);
  await member(await user('aldrig', { lastSignIn: null, createdAt: monthsAgo(25) }), archivedGroup);
  recentMembership = await member(await user('nyligen', { lastSignIn: monthsAgo(23) }), archivedGroup);
  await member(await user('nyskapad', { lastSignIn: null, createdAt: monthsAgo(1) }), archivedGroup);
  await member(await user('superadmin', { lastSignIn: monthsAgo(30), superadmin: true }), archivedGroup);
  const teacher = await user('larare', { lastSignIn: monthsAgo(30) });
  await member(teacher, archivedGroup, 'admin');
  await member(teacher, liveGroup, 'admin');
  const guardian = await user('vardnadshavare', { lastSignIn: monthsAgo(30) });
  const child = await user('barn', { lastSignIn: monthsAgo(1) });
  await member(child, liveGroup);
  await query(sql`insert into guardian_links (child_user_id, guardian_user_id, guardian_email, approved_at)
                  values (${child}, ${guardian}, 'vardnadshavare@retention.se', now())`);
  await insertOrder(server.app.db, {
    membership: erasedMembership,
    orderedAt: new Date(monthsAgo(26)),
    lines: [{ amountOre: 29_900 }],
  });
  const [figures] = await query<{ sales_ore: number }>(sql`select sales_ore from group_figures where group_id = ${archivedGroup}`);
  groupSalesBefore = Number(figures!.sales_ore);

  // Link clicks per day: one day past the 24 months, one inside.
  await query(sql`insert into link_clicks_per_day (membership_id, day, clicks) values
    (${recentMembership.id}, ${monthsAgo(25).slice(0, 10)}::date, 4), (${recentMembership.id}, ${monthsAgo(1).slice(0, 10)}::date, 2),
    (${erasedMembership.id}, ${monthsAgo(1).slice(0, 10)}::date, 3)`);

  // Codes and sessions, expired and not.
  const noah = (await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2')).userId;
  await query(sql`insert into password_reset_codes (user_id, code_hash, expires_at) values
    (${noah}, 'gammal-kod', ${daysAgo(1)}::timestamptz), (${noah}, 'giltig-kod', ${inMinutes(30)}::timestamptz)`);
  await query(sql`insert into sign_in_slip_codes (user_id, code_hash, expires_at) values
    (${noah}, 'gammal-lapp', ${daysAgo(1)}::timestamptz), (${noah}, 'giltig-lapp', ${inMinutes(60 * 24 * 6)}::timestamptz)`);
  const pending = await user('vantar', { lastSignIn: daysAgo(1) });
  await query(sql`update users set is_under_13 = true, guardian_consent = 'pending' where id = ${pending}`);
  await query(sql`insert into guardian_links (child_user_id, guardian_email, code_hash, code_expires_at) values
    (${pending}, 'forälder@retention.se', 'utgangen-samtyckeskod', ${monthsAgo(13)}::timestamptz),
    (${child}, 'annan@retention.se', 'nyss-utgangen-samtyckeskod', ${daysAgo(2)}::timestamptz)`);
  await query(sql`insert into removed_consent_codes (code_hash, reason, removed_at) values
    ('borttagen-lange', 'withdrawn', ${monthsAgo(13)}::timestamptz), ('borttagen-nyss', 'deleted', ${daysAgo(2)}::timestamptz)`);
  await query(sql`insert into refresh_tokens (user_id, token_hash, family_id, expires_at, revoked_at) values
    (${noah}, 'utgangen', 'f1', ${daysAgo(1)}::timestamptz, null),
    (${noah}, 'aterkallad-lange', 'f2', ${inMinutes(60 * 24 * 20)}::timestamptz, ${daysAgo(8)}::timestamptz),
    (${noah}, 'aterkallad-nyss', 'f3', ${inMinutes(60 * 24 * 20)}::timestamptz, ${daysAgo(1)}::timestamptz),
    (${noah}, 'giltig', 'f4', ${inMinutes(60 * 24 * 20)}::timestamptz, null)`);

  // An event stored before payloads were reduced: the buyer in full, not yet processed.
  const order = {
    ...swedishOrder({
      id: 7_600_000_000_001,
      refCode: (
        await query<{ link_code: string }>(sql`
      select m.link_code from memberships m join users u on u.id = m.user_id where u.email = 'noah@demo.se'`)
      )[0]!.link_code,
    }),
    email: 'astrid.lindgren@exempel.se',
    browser_ip: '192.0.2.7',
    billing_address: { first_name: 'Astrid', last_name: 'Lindgren', address1: 'Dalagatan 46', phone: '070-123 45 67' },
    customer: { id: 9, first_name: 'Astrid', last_name: 'Lindgren', email: 'astrid.lindgren@exempel.se' },
  };
  await query(sql`insert into webhook_events (webhook_id, topic, payload, shopify_order_id)
                  values ('fore-retention-1', 'orders/create', ${JSON.stringify(order)}, 7600000000001)`);

  const outcome = await server.app.scheduledJobs.runJob('retention', now);
  if (outcome.kind !== 'ran') throw new Error(`retention did not run: ${JSON.stringify(outcome)}`);
  summary = outcome.summary;
});
afterAll(() => server.close());

describe('the retention job', () => {
  it('stores a summary of counts only, for the Stockholm day, and runs once that day', async () => {
    expect(summary).toEqual({
      webhookPayloadsReduced: 1,
      linkClickDaysDeleted: 1,
      accountsErased: 2,
      accountsNotErased: 0,
      mailsDeleted: 0,
      mailFilesDeleted: 0,
      resetCodesDeleted: 1,
      slipCodesDeleted: 1,
      consentCodesDeleted: 1,
      removedConsentCodesDeleted: 1,
      refreshTokensDeleted: 2,
    });
    const [run] = await query<{ period: string; summary: unknown; error: string | null }>(
      sql`select period, summary, error from job_runs where job = 'retention'`,
    );
    expect(run).toEqual({
      period: new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(now),
      summary,
      error: null,
    });
    expect((await server.app.scheduledJobs.runJob('retention', new Date(now.getTime() + 1000))).kind).toBe('already_claimed');
  });

  it('reduces a stored payload to what the ledger reads, and a replay still records the order', async () => {
    const [event] = await query<{ id: number; payload: string; payload_reduced: boolean }>(
      sql`select id, payload, payload_reduced from webhook_events where webhook_id = 'fore-retention-1'`,
    );
    expect(event!.payload_reduced).toBe(true);
    for (const personal of BUYER) expect(event!.payload, personal).not.toContain(personal);
    const replayed = await replayWebhookEvents(server.app.db, { defaultCommissionBps: 2500, report: () => undefined });
    expect(replayed).toEqual({ processed: 1, failed: 0 });
    const [order] = await query<{ subtotal_ore: number; email: string }>(sql`
      select o.subtotal_ore, u.email from orders o join memberships m on m.id = o.membership_id join users u on u.id = m.user_id
      where o.shopify_order_id = 7600000000001`);
    expect(order).toMatchObject({ email: 'noah@demo.se' });
    expect(Number(order!.subtotal_ore)).toBeGreaterThan(0);
  });

  it('stores a new delivery reduced at receipt: nothing of the buyer, nothing left for the job', async () => {
    await sendShopifyWebhook(server.url, 'orders/create', {
      ...swedishOrder({ id: 7_600_000_000_002, refCode: erasedMembership.linkCode }),
      email: 'astrid.lindgren@exempel.se',
      shipping_address: { name: 'Astrid Lindgren', address1: 'Dalagatan 46' },
    });
    await sendShopifyWebhook(server.url, 'customers/create', { id: 77, email: 'astrid.lindgren@exempel.se', first_name: 'Astrid' });
    const events = await query<{ topic: string; payload: string; payload_reduced: boolean }>(
      sql`select topic, payload, payload_reduced from webhook_events where topic in ('orders/create', 'customers/create') and webhook_id <> 'fore-retention-1'`,
    );
    expect(events.length).toBeGreaterThanOrEqual(2);
    for (const event of events) {
      expect(event.payload_reduced).toBe(true);
      for (const personal of BUYER) expect(event.payload, personal).not.toContain(personal);
    }
    expect(events.find((event) => event.topic === 'customers/create')!.payload).toBe('{"id":77}');
  });

  it('keeps no buyer in any table: no column anywhere is named for one', async () => {
    const columns = await query<{ table_name: string; column_name: string }>(sql`
      select table_name, column_name from information_schema.columns where table_schema = 'public'`);
    const buyerish = columns.filter((column) =>
      /(^|_)(ip|user_agent|address|buyer|customer|shipping|billing|zip|city|note)(_|$)/.test(column.column_name),
    );
    expect(buyerish).toEqual([]);
  });

  it('deletes link-click counts older than 24 months and keeps the newer ones', async () => {
    const days = await query<{ clicks: number }>(sql`select clicks from link_clicks_per_day where membership_id = ${recentMembership.id}`);
    expect(days.map((day) => Number(day.clicks))).toEqual([2]);
    // Erasure takes every count of the erased account's link, however new.
    expect(await query(sql`select clicks from link_clicks_per_day where membership_id = ${erasedMembership.id}`)).toEqual([]);
  });

  it('erases accounts of archived groups only with no sign-in for 24 months, keeping the group totals', async () => {
    const rows = await query<{ email: string; full_name: string; phone: string | null; erased: boolean }>(sql`
      select email, full_name, phone, erased_at is not null as erased from users where id in (${sql.join(
        Object.values(people).map((id) => sql`${id}`),
        sql`, `,
      )}) order by id`);
    const byKey = Object.fromEntries(Object.entries(people).map(([key, id], index) => [key, { id, row: rows[index]! }]));
    const erased = Object.entries(byKey)
      .filter(([, { row }]) => row.erased)
      .map(([key]) => key);
    // Never a superadmin, never a teacher of a group in use, never a guardian of a child, never someone seen in 24 months.
    expect(erased.sort()).toEqual(['aldrig', 'gammal']);
    expect(byKey.gammal!.row).toMatchObject({ full_name: 'Borttagen säljare', phone: null });
    expect(byKey.gammal!.row.email).not.toContain('gammal');
    const [figures] = await query<{ sales_ore: number }>(sql`select sales_ore from group_figures where group_id = ${archivedGroup}`);
    expect(Number(figures!.sales_ore)).toBe(groupSalesBefore);
    expect((await fetch(`${server.url}/s/${erasedMembership.linkCode}`, { redirect: 'manual' })).status).toBe(404);
    const [audit] = await query<{ actor_user_id: number | null; details: unknown }>(
      sql`select actor_user_id, details from audit_entries where action = 'account.erase' and target_id = ${String(people.gammal)}`,
    );
    expect(audit).toEqual({ actor_user_id: null, details: { reason: 'retention', memberships: 1 } });
  });

  it('deletes expired reset codes and keeps a valid one', async () => {
    const codes = await query<{ code_hash: string }>(
      sql`select code_hash from password_reset_codes where code_hash in ('gammal-kod', 'giltig-kod')`,
    );
    expect(codes.map((code) => code.code_hash)).toEqual(['giltig-kod']);
  });

  it('deletes expired sign-in slip codes and keeps a valid one (issue 31)', async () => {
    const codes = await query<{ code_hash: string }>(
      sql`select code_hash from sign_in_slip_codes where code_hash in ('gammal-lapp', 'giltig-lapp')`,
    );
    expect(codes.map((code) => code.code_hash)).toEqual(['giltig-lapp']);
  });

  it("deletes a consent code's hash a year after it expired, and keeps the pending child's link row", async () => {
    const links = await query<{ guardian_email: string; code_hash: string | null }>(
      sql`select guardian_email, code_hash from guardian_links where guardian_email in ('forälder@retention.se', 'annan@retention.se') order by id`,
    );
    expect(links).toEqual([
      { guardian_email: 'forälder@retention.se', code_hash: null },
      { guardian_email: 'annan@retention.se', code_hash: 'nyss-utgangen-samtyckeskod' },
    ]);
    const removed = await query<{ code_hash: string }>(sql`select code_hash from removed_consent_codes where code_hash like 'borttagen-%'`);
    expect(removed.map((row) => row.code_hash)).toEqual(['borttagen-nyss']);
  });

  it('deletes expired refresh tokens and those revoked more than 7 days ago', async () => {
    const tokens = await query<{ token_hash: string }>(
      sql`select token_hash from refresh_tokens where family_id in ('f1', 'f2', 'f3', 'f4') order by family_id`,
    );
    expect(tokens.map((token) => token.token_hash)).toEqual(['aterkallad-nyss', 'giltig']);
  });
});

describe('sign-in for retention', () => {
  it('records when an account last signed in', async () => {
    await query(sql`update users set last_sign_in_at = null where email = 'elsa@demo.se'`);
    await server.login('elsa@demo.se');
    const [row] = await query<{ recent: boolean }>(
      sql`select last_sign_in_at > now() - interval '1 minute' as recent from users where email = 'elsa@demo.se'`,
    );
    expect(row?.recent).toBe(true);
  });
});

describe('the period', () => {
  // Last: a clock years ahead makes everything old.
  it('takes a Stockholm day as its period: 23:30 UTC on a winter night is already the next day', async () => {
    const outcome = await server.app.scheduledJobs.runJob('retention', new Date('2030-01-14T23:30:00Z'));
    expect(outcome).toMatchObject({ kind: 'ran', period: '2030-01-15' });
  });
});
