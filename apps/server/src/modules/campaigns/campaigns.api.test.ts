/**
 * Issue 31, points 3–6: a class's campaign over HTTP on the seeded demo data (Klass 6B: Karin the
 * teacher and ten pupils who have all sold). Its days and what the personal links do before, during
 * and after them; the close-out, once however many processes run it; the closing note; next term.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  stockholmToday,
  type TCampaignResponse,
  type TClosingNoteResponse,
  type TCloneGroupResponse,
  type TGroupTotalsResponse,
  type TOutstandingPayoutsResponse,
} from '@saljportalen/contract';
import { groupIdByCode, membershipOf, sqlRows } from '../../../test/admin-fixtures.js';
import { startTestServer, testDbKind, type TestServer } from '../../../test/test-server.js';
import { addCalendarDays } from '../../lib/dates.js';
import { closeOutEndedCampaigns } from './close-out.js';

let server: TestServer;
let group: number;
const tokens: Record<'teacher' | 'elsa' | 'noah' | 'otherAdmin' | 'superadmin', string> = {} as never;
const GUARDIANS = ['mamma.elsa@example.se', 'pappa.noah@example.se'];

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  group = await groupIdByCode(server.app.db, 'BJK6B2');
  for (const [name, email] of [
    ['teacher', 'larare@bjorkskolan.se'],
    ['elsa', 'elsa@demo.se'],
    ['noah', 'noah@demo.se'],
    ['otherAdmin', 'ledare@tallen.se'],
    ['superadmin', 'admin@saljportalen.se'],
  ] as const) {
    tokens[name] = await server.login(email);
  }
  // Elsa's mother, and Noah's father who is also guardian of another pupil of the class: one mail each.
  const elsa = await membershipOf(server.app.db, 'elsa@demo.se', 'BJK6B2');
  const noah = await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2');
  const [other] = await sqlRows<{ user_id: number }>(
    server.app.db,
    sql`select user_id from memberships where group_id = ${group} and role = 'seller' and user_id not in (${elsa.userId}, ${noah.userId}) limit 1`,
  );
  const guardians = await sqlRows<{ id: number }>(
    server.app.db,
    sql`insert into users (email, password_hash, full_name) values (${GUARDIANS[0]}, 'x', 'Eva Mamma'), (${GUARDIANS[1]}, 'x', 'Olof Pappa') returning id`,
  );
  await server.app.db.execute(sql`
    insert into guardian_links (child_user_id, guardian_user_id, guardian_email, approved_at) values
      (${elsa.userId}, ${guardians[0]!.id}, ${GUARDIANS[0]}, now()),
      (${noah.userId}, ${guardians[1]!.id}, ${GUARDIANS[1]}, now()),
      (${other!.user_id}, ${guardians[1]!.id}, ${GUARDIANS[1]}, now())`);
});
afterAll(() => server.close());

async function call<T>(method: string, path: string, token: string | undefined, body?: unknown) {
  const response = await server.request(method, path, { token, body });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, text };
}

/** A Stockholm day `days` after today. */
const dayFromToday = (days: number) => addCalendarDays(stockholmToday(), days);

const linkOf = async (email: string) => (await membershipOf(server.app.db, email, 'BJK6B2')) && linkCodeOf(email);
async function linkCodeOf(email: string): Promise<string> {
  const [row] = await sqlRows<{ link_code: string }>(
    server.app.db,
    sql`select m.link_code from memberships m join users u on u.id = m.user_id where u.email = ${email} and m.group_id = ${group}`,
  );
  return row!.link_code;
}
const clicksOf = async (code: string) =>
  (
    await sqlRows<{ clicks: number }>(
      server.app.db,
      sql`select coalesce(sum(c.clicks), 0)::int as clicks from link_clicks_per_day c join memberships m on m.id = c.membership_id where m.link_code = ${code}`,
    )
  )[0]!.clicks;

describe(`a campaign's days (${testDbKind})`, () => {
  it('is set by the teacher or a superadmin, and refused to a pupil and to another group’s admin', async () => {
    const days = { group_id: group, starts_on: dayFromToday(-3), ends_on: dayFromToday(11) };
    const set = await call<TCampaignResponse>('POST', '/api/group/campaign', tokens.teacher, days);
    expect(set.status, set.text).toBe(200);
    expect(set.body.campaign).toEqual({ starts_on: days.starts_on, ends_on: days.ends_on, state: 'running', days_left: 12 });
    for (const token of [tokens.elsa, tokens.otherAdmin]) {
      expect((await call('POST', '/api/group/campaign', token, days)).status).toBe(403);
    }
    expect((await call('POST', '/api/group/campaign', tokens.superadmin, days)).status).toBe(200);
    expect((await call('POST', '/api/group/campaign', undefined, days)).status).toBe(401);
    // A pupil's dashboard reads it at once (the read model follows the group's row).
    const totals = await call<TGroupTotalsResponse>('GET', '/api/group/totals', tokens.elsa);
    expect(totals.body.campaign).toEqual(set.body.campaign);
  });

  it('refuses days that are no campaign, at the field, in Swedish', async () => {
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ starts_on: dayFromToday(5), ends_on: dayFromToday(4) }, 'ends_on', 'Slutdatumet kan inte vara före startdatumet'],
      [{ starts_on: dayFromToday(0), ends_on: dayFromToday(366) }, 'ends_on', 'Försäljningen får pågå högst ett år'],
      [{ starts_on: dayFromToday(-10), ends_on: dayFromToday(-1) }, 'ends_on', 'Slutdatumet har redan passerat'],
      [{ starts_on: '2026-02-30', ends_on: dayFromToday(4) }, 'starts_on', 'Ogiltigt datum'],
      [{ ends_on: dayFromToday(4) }, 'starts_on', ''],
    ];
    for (const [days, field, message] of refusals) {
      const answer = await call<{ error: { code: string; message: string; details?: { field: string; message: string }[] } }>(
        'POST',
        '/api/group/campaign',
        tokens.teacher,
        { group_id: group, ...days },
      );
      expect(answer.status, JSON.stringify(days)).toBe(400);
      const issue = answer.body.error.details?.find((detail) => detail.field === field);
      expect(issue, answer.text).toBeDefined();
      if (message) expect(issue!.message).toBe(message);
    }
    // The longest campaign allowed: a year from its first day.
    expect(
      (
        await call('POST', '/api/group/campaign', tokens.teacher, {
          group_id: group,
          starts_on: dayFromToday(0),
          ends_on: dayFromToday(365),
        })
      ).status,
    ).toBe(200);
  });

  it('opens the personal links to the shop only while it runs, and counts only those visits', async () => {
    const code = await linkOf('noah@demo.se');
    const visit = () => fetch(`${server.url}/s/${code}`, { redirect: 'manual' });

    await call('POST', '/api/group/campaign', tokens.teacher, { group_id: group, starts_on: dayFromToday(0), ends_on: dayFromToday(6) });
    const before = await clicksOf(code);
    const running = await visit();
    expect(running.status).toBe(200);
    expect(await running.text()).toContain(`href="https://butik.example.se/?ref=${code}"`);
    expect(await clicksOf(code)).toBe(before + 1);

    const starts = dayFromToday(20);
    await call('POST', '/api/group/campaign', tokens.teacher, { group_id: group, starts_on: starts, ends_on: dayFromToday(40) });
    const upcoming = await visit();
    expect(upcoming.status).toBe(200);
    expect(upcoming.headers.get('location')).toBeNull();
    const page = await upcoming.text();
    expect(page).toContain('<h1>Försäljningen startar ');
    expect(page).not.toContain(code);
    expect(page).not.toContain('butik.example.se');
    expect(await clicksOf(code)).toBe(before + 1);

    await server.app.db.execute(
      sql`update groups set campaign_starts_on = ${dayFromToday(-20)}, campaign_ends_on = ${dayFromToday(-1)} where id = ${group}`,
    );
    const ended = await visit();
    expect(ended.status).toBe(200);
    expect(await ended.text()).toContain('<h1>Försäljningen är avslutad – tack!</h1>');
    expect(await clicksOf(code)).toBe(before + 1);
    const totals = await call<TGroupTotalsResponse>('GET', '/api/group/totals', tokens.noah);
    expect(totals.body.campaign).toMatchObject({ state: 'ended', days_left: 0 });
  });
});

describe(`the close-out (${testDbKind})`, () => {
  it('runs once across two processes: one summary per teacher and guardian, naming no pupil', async () => {
    // The campaign ended yesterday (the previous test); two processes run the close-out at once.
    const second = testDbKind === 'postgres' ? await startTestServer({ env: { DATABASE_URL: server.app.config.databaseUrl! } }) : server;
    const mailsBefore = server.mails().length;
    try {
      const now = new Date();
      const runs = await Promise.all([
        closeOutEndedCampaigns(server.app.db, now, 'http://localhost:3000'),
        closeOutEndedCampaigns(second.app.db, now, 'http://localhost:3000'),
      ]);
      expect(runs.map((run) => run.campaigns).sort()).toEqual([0, 1]);
      expect(runs.reduce((sum, run) => sum + run.mails, 0)).toBe(3);
      // And never again.
      expect(await closeOutEndedCampaigns(server.app.db, now, 'http://localhost:3000')).toEqual({ campaigns: 0, mails: 0 });
    } finally {
      if (second !== server) await second.close();
    }
    await server.app.mailOutbox.deliverSoon();
    const mails = server.mails().slice(mailsBefore);
    expect(mails.map((mail) => mail.to).sort()).toEqual(['larare@bjorkskolan.se', ...GUARDIANS].sort());
    const [figures] = await sqlRows<{ sales_ore: number; commission_ore: number }>(
      server.app.db,
      sql`select sales_ore::int8 as sales_ore, commission_ore::int8 as commission_ore from group_figures where group_id = ${group}`,
    );
    const pupils = await sqlRows<{ full_name: string }>(
      server.app.db,
      sql`select u.full_name from memberships m join users u on u.id = m.user_id where m.group_id = ${group} and m.role = 'seller'`,
    );
    for (const mail of mails) {
      expect(mail.subject).toBe('Försäljningen är avslutad: Klass 6B Björkskolan');
      expect(mail.text).toContain(`av ${pupils.length} elever var med och sålde`);
      expect(mail.text.replace(/\s/g, ' ')).toContain(
        `sålde för ${new Intl.NumberFormat('sv-SE').format(Math.round(Number(figures!.sales_ore) / 100)).replace(/\s/g, ' ')} kr`,
      );
      for (const pupil of pupils) expect(mail.text).not.toContain(pupil.full_name.split(' ')[0]!);
    }
    const [audit] = await sqlRows<{ n: number }>(
      server.app.db,
      sql`select count(*)::int as n from audit_entries where action = 'group.campaign_closed' and target_id = ${group}`,
    );
    expect(audit!.n).toBe(1);
  });

  it('puts the ended campaign under the superadmin’s payouts to settle, with its days', async () => {
    const outstanding = await call<TOutstandingPayoutsResponse>('GET', '/api/admin/payouts/outstanding', tokens.superadmin);
    const row = outstanding.body.find((candidate) => candidate.group_id === group);
    expect(row, outstanding.text).toBeDefined();
    expect(row!.ended_campaign).toEqual({ starts_on: dayFromToday(-20), ends_on: dayFromToday(-1) });
    expect(row!.amount_to_pay).toBeGreaterThan(0);
    // One click: the proposal's period is what the payout takes.
    const created = await call<{ created: boolean }>('POST', '/api/admin/payouts', tokens.superadmin, {
      group_id: group,
      from: row!.period_from,
      to: row!.period_to,
      auto_archive: false,
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.created).toBe(true);
    const after = await call<TOutstandingPayoutsResponse>('GET', '/api/admin/payouts/outstanding', tokens.superadmin);
    expect(after.body.find((candidate) => candidate.group_id === group)).toBeUndefined();
  });

  it('keeps a closed-out campaign’s days', async () => {
    const moved = await call<{ error: { code: string } }>('POST', '/api/group/campaign', tokens.teacher, {
      group_id: group,
      starts_on: dayFromToday(0),
      ends_on: dayFromToday(10),
    });
    expect(moved.status).toBe(409);
    expect(moved.body.error.code).toBe('CONFLICT');
  });
});

describe(`the closing note (${testDbKind})`, () => {
  it('is written after the end by the teacher, mailed to the guardians once, and shown to pupils and guardians', async () => {
    expect((await call('POST', '/api/group/closing-note', tokens.elsa, { group_id: group, text: 'Hej' })).status).toBe(403);
    expect((await call('POST', '/api/group/closing-note', tokens.otherAdmin, { group_id: group, text: 'Hej' })).status).toBe(403);
    const tooLong = await call<{ error: { details: { field: string; message: string }[] } }>(
      'POST',
      '/api/group/closing-note',
      tokens.teacher,
      {
        group_id: group,
        text: 'å'.repeat(1001),
      },
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details).toEqual([{ field: 'text', message: 'Texten får vara högst 1000 tecken' }]);
    expect((await call('POST', '/api/group/closing-note', tokens.teacher, { group_id: group, text: ' \n\t ' })).status).toBe(400);

    const mailsBefore = server.mails().length;
    const text = 'Tack alla!\r\n\r\n\r\nVi åkte till Kolmården i maj.\u0007 Pengarna räckte till bussen och entrén.';
    const written = await call<TClosingNoteResponse>('POST', '/api/group/closing-note', tokens.teacher, { group_id: group, text });
    expect(written.status, written.text).toBe(200);
    expect(written.body.closing_note.text).toBe('Tack alla!\n\nVi åkte till Kolmården i maj. Pengarna räckte till bussen och entrén.');
    expect(written.body.mailed).toBe(2);
    await server.app.mailOutbox.deliverSoon();
    const mails = server.mails().slice(mailsBefore);
    expect(mails.map((mail) => mail.to).sort()).toEqual([...GUARDIANS].sort());
    expect(mails[0]!.subject).toBe('Vad pengarna blev: Klass 6B Björkskolan');
    expect(mails[0]!.text).toContain('Vi åkte till Kolmården i maj.');

    const totals = await call<TGroupTotalsResponse>('GET', '/api/group/totals', tokens.noah);
    expect(totals.body.closing_note?.text).toBe(written.body.closing_note.text);

    // An edit is shown, and mailed to nobody again.
    const edited = await call<TClosingNoteResponse>('POST', '/api/group/closing-note', tokens.teacher, {
      group_id: group,
      text: 'Vi åkte till Kolmården!',
    });
    expect(edited.body.mailed).toBe(0);
    expect((await call<TGroupTotalsResponse>('GET', '/api/group/totals', tokens.elsa)).body.closing_note?.text).toBe(
      'Vi åkte till Kolmården!',
    );
  });

  it('waits for the end of a running campaign, and needs a campaign', async () => {
    const fresh = await startTestServer({ seed: true });
    try {
      const teacher = await fresh.login('ledare@tallen.se');
      const scouts = await groupIdByCode(fresh.app.db, 'SCT482');
      const write = () => fresh.request('POST', '/api/group/closing-note', { token: teacher, body: { group_id: scouts, text: 'Tack!' } });
      expect((await write()).status).toBe(409);
      await fresh.request('POST', '/api/group/campaign', {
        token: teacher,
        body: { group_id: scouts, starts_on: dayFromToday(-1), ends_on: dayFromToday(0) },
      });
      const answer = await write();
      expect(answer.status).toBe(409);
      expect(((await answer.json()) as { error: { message: string } }).error.message).toBe(
        'Du kan skriva vad pengarna blev när försäljningen är avslutad',
      );
    } finally {
      await fresh.close();
    }
  });
});

describe(`next term (${testDbKind})`, () => {
  it('makes a new group with the teacher and the ticked pupils, new links and nothing carried over', async () => {
    const kept = await sqlRows<{ id: number; user_id: number; link_code: string }>(
      server.app.db,
      sql`select m.id, m.user_id, m.link_code from memberships m join users u on u.id = m.user_id
          where m.group_id = ${group} and m.role = 'seller' and u.email in ('elsa@demo.se', 'noah@demo.se') order by m.id`,
    );
    const otherClass = await sqlRows<{ id: number }>(
      server.app.db,
      sql`select id from memberships where group_id = ${await groupIdByCode(server.app.db, 'SCT482')} and role = 'seller' limit 1`,
    );
    const refused = await call<{ error: { details: { field: string }[] } }>('POST', '/api/group/clone', tokens.teacher, {
      group_id: group,
      name: 'Klass 7B',
      membership_ids: [kept[0]!.id, otherClass[0]!.id],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0]!.field).toBe('membership_ids');
    expect((await call('POST', '/api/group/clone', tokens.elsa, { group_id: group, name: 'Klass 7B', membership_ids: [] })).status).toBe(
      403,
    );
    expect((await call('POST', '/api/group/clone', tokens.teacher, { group_id: group, name: ' ', membership_ids: [] })).status).toBe(400);

    const cloned = await call<TCloneGroupResponse>('POST', '/api/group/clone', tokens.teacher, {
      group_id: group,
      name: 'Klass 7B',
      membership_ids: kept.map((row) => row.id),
    });
    expect(cloned.status, cloned.text).toBe(200);
    expect(cloned.body.pupils).toBe(2);
    expect(cloned.body.group.code).toMatch(/^[A-Z0-9]{6}$/);
    const newGroup = cloned.body.group.id;
    const members = await sqlRows<{ user_id: number; role: string; link_code: string }>(
      server.app.db,
      sql`select user_id, role, link_code from memberships where group_id = ${newGroup} order by role, user_id`,
    );
    expect(members.filter((member) => member.role === 'seller').map((member) => Number(member.user_id))).toEqual(
      kept.map((row) => Number(row.user_id)).sort((a, b) => a - b),
    );
    expect(members.filter((member) => member.role === 'admin')).toHaveLength(1);
    for (const member of members) expect(kept.map((row) => row.link_code)).not.toContain(member.link_code);

    // Elsa's dashboard is the new class's now: no figures, goal, campaign or note carried over.
    const totals = await call<TGroupTotalsResponse>('GET', '/api/group/totals', tokens.elsa);
    expect(totals.body).toMatchObject({
      totals: { total_sales: 0, total_commission: 0, orders_count: 0 },
      goal: null,
      campaign: null,
      closing_note: null,
    });
    // The old class was settled by the payout above, so it is archived at once.
    expect(cloned.body.old_group).toBe('archived');
    const [old] = await sqlRows<{ archived: boolean }>(server.app.db, sql`select archived from groups where id = ${group}`);
    expect(old!.archived).toBe(true);
    const [made] = await sqlRows<{ cloned_from_group_id: number }>(
      server.app.db,
      sql`select cloned_from_group_id from groups where id = ${newGroup}`,
    );
    expect(Number(made!.cloned_from_group_id)).toBe(group);
  });

  it('archives a class with unsettled commission when its payout is marked paid', async () => {
    const fresh = await startTestServer({ seed: true });
    try {
      const teacher = await fresh.login('ledare@tallen.se');
      const superadmin = await fresh.login('admin@saljportalen.se');
      const scouts = await groupIdByCode(fresh.app.db, 'SCT482');
      const cloned = await fresh.request('POST', '/api/group/clone', {
        token: teacher,
        body: { group_id: scouts, name: 'Scouterna HT', membership_ids: [] },
      });
      expect(((await cloned.json()) as TCloneGroupResponse).old_group).toBe('archived_when_settled');
      const archived = async () =>
        (await sqlRows<{ archived: boolean }>(fresh.app.db, sql`select archived from groups where id = ${scouts}`))[0]!.archived;
      expect(await archived()).toBe(false);
      const created = (await (
        await fresh.request('POST', '/api/admin/payouts', {
          token: superadmin,
          body: { group_id: scouts, from: '2000-01-01', to: stockholmToday(), auto_archive: false },
        })
      ).json()) as { id: number };
      expect(await archived()).toBe(false);
      await fresh.request('PUT', `/api/admin/groups/${scouts}/payout-account`, {
        token: superadmin,
        body: { kind: 'bankgiro', account_number: '9991234-7', holder_name: 'Scoutkåren' },
      });
      const paid = await fresh.request('PATCH', `/api/admin/payouts/${created.id}`, { token: superadmin, body: { status: 'paid' } });
      expect(paid.status, await paid.text()).toBe(200);
      expect(await archived()).toBe(true);
    } finally {
      await fresh.close();
    }
  });
});
