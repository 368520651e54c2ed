/**
 * Issue 20, points 1–3: the class goal, the pupil's private goal and the kinder leaderboard
 * modes, over HTTP on the seeded demo data (Klass 6B: Karin the teacher and ten pupils who have
 * all sold; two pupils without a sale are added here).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  stockholmToday,
  type TAdminGroupDetailResponse,
  type TAdminGroupListResponse,
  type TGroupTotalsResponse,
  type TLeaderboardResponse,
  type TMeSummaryResponse,
} from '@saljportalen/contract';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { groupIdByCode, membershipOf, sqlRows } from '../../../test/admin-fixtures.js';
import { pdfText } from '../../../test/pdf-tools.js';
import { goalProgress } from '../notifications/weekly-summary.js';
import { addCalendarDays } from '../../lib/dates.js';

let server: TestServer;
let group: number;
let otherGroup: number;
const tokens: Record<'teacher' | 'elsa' | 'noah' | 'otherAdmin' | 'superadmin', string> = {} as never;
/** Two pupils of 6B who have not sold yet. */
const newcomers: { id: number; name: string }[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  group = await groupIdByCode(server.app.db, 'BJK6B2');
  otherGroup = await groupIdByCode(server.app.db, 'SCT482');
  for (const [name, email] of [
    ['teacher', 'larare@bjorkskolan.se'],
    ['elsa', 'elsa@demo.se'],
    ['noah', 'noah@demo.se'],
    ['otherAdmin', 'ledare@tallen.se'],
    ['superadmin', 'admin@saljportalen.se'],
  ] as const) {
    tokens[name] = await server.login(email);
  }
  const created = await sqlRows<{ id: number; full_name: string }>(
    server.app.db,
    sql`insert into users (email, password_hash, full_name, active_group_id)
        values ('ny1@demo.se', 'x', 'Östen Nyberg', ${group}), ('ny2@demo.se', 'x', 'Ada Nyberg', ${group})
        returning id, full_name`,
  );
  await server.app.db.execute(sql`
    insert into memberships (user_id, group_id, role, link_code)
    values (${created[0]!.id}, ${group}, 'seller', 'TESTNY01'), (${created[1]!.id}, ${group}, 'seller', 'TESTNY02')`);
  newcomers.push(...created.map((row) => ({ id: Number(row.id), name: row.full_name })));
});
afterAll(() => server.close());

async function call<T>(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: T; text: string }> {
  const response = await server.request(method, path, { token, body });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as T, text };
}

async function ok<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const answer = await call<T>(method, path, token, body);
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200);
  return answer.body;
}

/** A Stockholm day `days` after today. */
const dayFromToday = (days: number) => addCalendarDays(stockholmToday(), days);

async function storedGoal(groupId: number) {
  const [row] = await sqlRows<{ goal_ore: string | null; goal_purpose: string | null; goal_ends_on: string | null }>(
    server.app.db,
    sql`select goal_ore::text, goal_purpose, goal_ends_on::text from groups where id = ${groupId}`,
  );
  return row!;
}

describe('the class goal', () => {
  it('is set, changed and removed by the group admin, shown in totals with days left, and audited', async () => {
    const endsOn = dayFromToday(30);
    expect(
      await ok('POST', '/api/group/goal', tokens.teacher, {
        group_id: group,
        amount: 15000,
        purpose: 'Klassresa till Liseberg',
        ends_on: endsOn,
      }),
    ).toEqual({ ok: true, goal: { amount: 15000, purpose: 'Klassresa till Liseberg', ends_on: endsOn, days_left: 30 } });
    expect(await storedGoal(group)).toEqual({ goal_ore: '1500000', goal_purpose: 'Klassresa till Liseberg', goal_ends_on: endsOn });

    // Every member's totals carry it, pupils' too.
    const totals = await ok<TGroupTotalsResponse>('GET', '/api/group/totals', tokens.noah);
    expect(totals.goal).toEqual({ amount: 15000, purpose: 'Klassresa till Liseberg', ends_on: endsOn, days_left: 30 });

    // Changed: control characters in the purpose become one space.
    const later = dayFromToday(0);
    await ok('POST', '/api/group/goal', tokens.teacher, {
      group_id: group,
      amount: 20000,
      purpose: 'Klassresa\u0007 till\n Liseberg ',
      ends_on: later,
    });
    expect(await storedGoal(group)).toEqual({ goal_ore: '2000000', goal_purpose: 'Klassresa till Liseberg', goal_ends_on: later });
    expect((await ok<TGroupTotalsResponse>('GET', '/api/group/totals', tokens.elsa)).goal).toMatchObject({ amount: 20000, days_left: 0 });

    // Removed.
    expect(await ok('POST', '/api/group/goal', tokens.teacher, { group_id: group, amount: null })).toEqual({ ok: true, goal: null });
    expect(await storedGoal(group)).toEqual({ goal_ore: null, goal_purpose: null, goal_ends_on: null });
    expect((await ok<TGroupTotalsResponse>('GET', '/api/group/totals', tokens.noah)).goal).toBeNull();

    const audit = await sqlRows<{ details: Record<string, unknown> }>(
      server.app.db,
      sql`select details from audit_entries where action = 'group.goal' and target_id = ${String(group)} order by id`,
    );
    expect(audit.map((entry) => entry.details)).toEqual([
      { amount: 15000, purpose: 'Klassresa till Liseberg', ends_on: endsOn },
      { amount: 20000, purpose: 'Klassresa till Liseberg', ends_on: later },
      { removed: true },
    ]);
  });

  it("is set by a superadmin, and refused for a seller, another group's admin and an unknown group", async () => {
    const goal = { amount: 5000, purpose: 'Lägerskola', ends_on: dayFromToday(10) };
    for (const [token, groupId] of [
      [tokens.noah, group],
      [tokens.otherAdmin, group],
      [tokens.teacher, otherGroup],
      [tokens.teacher, 999_999],
    ] as const) {
      const answer = await call<{ error: { code: string; message: string } }>('POST', '/api/group/goal', token, {
        group_id: groupId,
        ...goal,
      });
      expect(answer.status).toBe(403);
      expect(answer.body.error.message).toBe('Endast gruppens administratörer kan ändra klassens mål');
    }
    expect(await storedGoal(group)).toEqual({ goal_ore: null, goal_purpose: null, goal_ends_on: null });

    await ok('POST', '/api/group/goal', tokens.superadmin, { group_id: otherGroup, ...goal });
    expect(await storedGoal(otherGroup)).toMatchObject({ goal_ore: '500000', goal_purpose: 'Lägerskola' });
    // The admin's group list and detail show it, for the progress bars.
    const list = await ok<TAdminGroupListResponse>('GET', '/api/admin/groups?q=SCT482', tokens.superadmin);
    expect(list.items[0]!.goal).toEqual({ ...goal, days_left: 10 });
    const detail = await ok<TAdminGroupDetailResponse>('GET', `/api/admin/group/${otherGroup}`, tokens.superadmin);
    expect(detail.group.goal).toEqual({ ...goal, days_left: 10 });
    await ok('POST', '/api/group/goal', tokens.superadmin, { group_id: otherGroup, amount: null });
  });

  it('refuses bad input with a Swedish 400, and stores nothing', async () => {
    const valid = { group_id: group, amount: 15000, purpose: 'Klassresa', ends_on: dayFromToday(5) };
    for (const [change, message] of [
      [{ amount: 0 }, 'Målet måste vara större än 0 kr'],
      [{ amount: -100 }, 'Målet måste vara större än 0 kr'],
      [{ amount: 12.5 }, 'Ange målet i hela kronor'],
      [{ amount: 'mycket' }, 'Ange målet i kronor'],
      [{ amount: 20_000_000 }, 'Målet får vara högst 10 000 000 kr'],
      [{ purpose: '   ' }, 'Ange vad ni samlar till'],
      [{ purpose: undefined }, 'Ange vad ni samlar till'],
      [{ purpose: 'x'.repeat(101) }, 'Syftet får vara högst 100 tecken'],
      [{ ends_on: dayFromToday(-1) }, 'Slutdatumet har redan passerat'],
      [{ ends_on: '2026-02-30' }, 'Ogiltigt datum'],
      [{ ends_on: undefined }, 'Ange ett slutdatum'],
    ] as const) {
      const answer = await call<{ error: { code: string; message: string } }>('POST', '/api/group/goal', tokens.teacher, {
        ...valid,
        ...change,
      });
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.text).toContain(message);
    }
    expect(await storedGoal(group)).toEqual({ goal_ore: null, goal_purpose: null, goal_ends_on: null });
  });

  it("is printed on the pupil's catalogue as 'Vi samlar till: …'", async () => {
    const pdf = async () => Buffer.from(await (await server.request('GET', '/api/catalog/me.pdf', { token: tokens.noah })).arrayBuffer());
    expect(pdfText(await pdf())).not.toContain('Vi samlar till');
    await ok('POST', '/api/group/goal', tokens.teacher, {
      group_id: group,
      amount: 15000,
      purpose: 'Klassresa till Liseberg',
      ends_on: dayFromToday(30),
    });
    expect(pdfText(await pdf()).replace(/\s+/g, ' ')).toContain('Vi samlar till: Klassresa till Liseberg');
    await ok('POST', '/api/group/goal', tokens.teacher, { group_id: group, amount: null });
  });
});

describe('what the goal is measured in', () => {
  it('is commission everywhere: the totals, the chart and the weekly summary give the same amount and per cent', async () => {
    await ok('POST', '/api/group/goal', tokens.teacher, {
      group_id: group,
      amount: 1000,
      purpose: 'Klassresa till Liseberg',
      ends_on: dayFromToday(30),
    });
    const [orders] = await sqlRows<{ sales: string; commission: string }>(
      server.app.db,
      sql`select coalesce(sum(subtotal_ore), 0)::text as sales, coalesce(sum(commission_ore), 0)::text as commission
          from orders where group_id = ${group}`,
    );
    const commissionOre = Number(orders!.commission);
    // Commission is not sales: the progress would differ if measured in sales.
    expect(commissionOre).toBeGreaterThan(0);
    expect(commissionOre).toBeLessThan(Number(orders!.sales));

    // The progress bar's amount: the group's commission, what the class earns.
    const totals = await ok<TGroupTotalsResponse>('GET', '/api/group/totals', tokens.noah);
    expect(Math.round(totals.totals.total_commission * 100)).toBe(commissionOre);
    expect(totals.goal).toMatchObject({ amount: 1000 });
    // The chart's line against the goal ends at the same commission.
    const chart = await ok<{ total_commission: number; goal: number }>('GET', `/api/group/sales-per-day?group_id=${group}`, tokens.noah);
    expect(chart).toMatchObject({ total_commission: totals.totals.total_commission, goal: 1000 });
    // The weekly summary's per cent is the web's: floor(commission / goal).
    expect(goalProgress(100_000, commissionOre).percent).toBe(Math.floor((totals.totals.total_commission / 1000) * 100));

    // A pupil's own progress is their own commission, against their own goal.
    const noah = await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2');
    const [own] = await sqlRows<{ commission: string }>(
      server.app.db,
      sql`select coalesce(sum(commission_ore), 0)::text as commission from orders where membership_id = ${noah.id}`,
    );
    await ok('POST', '/api/me/personal-goal', tokens.noah, { amount: 500 });
    const summary = await ok<TMeSummaryResponse>('GET', '/api/me/summary', tokens.noah);
    expect(Math.round(summary.personal.total_commission * 100)).toBe(Number(own!.commission));
    expect(summary.personal.goal).toBe(500);
    await ok('POST', '/api/me/personal-goal', tokens.noah, { amount: null });
    await ok('POST', '/api/group/goal', tokens.teacher, { group_id: group, amount: null });
  });
});

describe('participation', () => {
  it('counts the pupils, not the teacher, and those of them who have sold', async () => {
    const [{ pupils }] = (await sqlRows<{ pupils: string }>(
      server.app.db,
      sql`select count(*)::text as pupils from memberships where group_id = ${group} and role = 'seller'`,
    )) as [{ pupils: string }];
    const totals = await ok<TGroupTotalsResponse>('GET', '/api/group/totals', tokens.teacher);
    // The seed's ten pupils have all sold; the two newcomers have not.
    expect(totals.participation).toEqual({ started: Number(pupils) - 2, members: Number(pupils) });
  });
});

describe('the personal goal', () => {
  it('is set and removed by the pupil, and shows only in their own summary', async () => {
    expect(await ok('POST', '/api/me/personal-goal', tokens.elsa, { amount: 1234 })).toEqual({ ok: true, amount: 1234 });
    expect((await ok<TMeSummaryResponse>('GET', '/api/me/summary', tokens.elsa)).personal.goal).toBe(1234);
    const noah = await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2');
    await ok('POST', '/api/me/personal-goal', tokens.noah, { amount: 987 });

    // What a classmate, the teacher or another group's admin can read carries neither amount, in any mode.
    for (const mode of ['full', 'participation', 'own_only'] as const) {
      await ok('POST', '/api/group/settings', tokens.teacher, { group_id: group, leaderboard_mode: mode });
      for (const [viewer, token, own] of [
        ['noah', tokens.noah, 987],
        ['teacher', tokens.teacher, null],
        ['otherAdmin', tokens.otherAdmin, null],
      ] as const) {
        for (const path of ['/api/me/summary', '/api/group/totals', '/api/group/leaderboard-mine']) {
          const { text } = await call('GET', path, token);
          expect(text, `${viewer} ${mode} ${path}`).not.toMatch(/\b1234\b|12\.34/);
          if (path !== '/api/me/summary') expect(text, `${viewer} ${mode} ${path}`).not.toMatch(/\b987\b/);
        }
        expect((await ok<TMeSummaryResponse>('GET', '/api/me/summary', token)).personal.goal).toBe(own);
      }
    }
    await ok('POST', '/api/group/settings', tokens.teacher, { group_id: group, leaderboard_mode: 'full' });

    expect(await ok('POST', '/api/me/personal-goal', tokens.elsa, { amount: null })).toEqual({ ok: true, amount: null });
    expect((await ok<TMeSummaryResponse>('GET', '/api/me/summary', tokens.elsa)).personal.goal).toBeNull();
    const [row] = await sqlRows<{ personal_goal_ore: string }>(
      server.app.db,
      sql`select personal_goal_ore::text from memberships where id = ${noah.id}`,
    );
    expect(row!.personal_goal_ore).toBe('98700');
  });

  it('refuses a bad amount with a Swedish 400, and a user without a group with 409', async () => {
    for (const amount of [0, -5, 1.5, 'tusen']) {
      const answer = await call<{ error: { message: string } }>('POST', '/api/me/personal-goal', tokens.noah, { amount });
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toMatch(/Ditt mål|kronor/);
    }
    const answer = await call<{ error: { message: string } }>('POST', '/api/me/personal-goal', tokens.superadmin, { amount: 100 });
    expect(answer.status).toBe(409);
    expect(answer.body.error.message).toBe('Du är inte med i någon aktiv grupp');
  });
});

describe('leaderboard modes', () => {
  async function setMode(mode: string) {
    return ok('POST', '/api/group/settings', tokens.teacher, { group_id: group, leaderboard_mode: mode });
  }

  async function names(groupId: number) {
    return sqlRows<{ user_id: number; full_name: string; role: string }>(
      server.app.db,
      sql`select m.user_id, u.full_name, m.role::text as role from memberships m join users u on u.id = m.user_id where m.group_id = ${groupId}`,
    );
  }

  it("'participation' sends who has started in name order, with no amounts and no ranks", async () => {
    expect(await setMode('participation')).toEqual({ ok: true, show_leaderboard: true, leaderboard_mode: 'participation' });
    const members = await names(group);
    for (const token of [tokens.noah, tokens.teacher]) {
      const { body, text } = await call<TLeaderboardResponse>('GET', '/api/group/leaderboard-mine', token);
      expect(body.mode).toBe('participation');
      if (body.mode !== 'participation') return;
      expect(Object.keys(body).sort()).toEqual(['group', 'mode', 'participation', 'sellers']);
      expect(body.participation).toEqual({
        started: members.filter((m) => m.role === 'seller').length - 2,
        members: members.filter((m) => m.role === 'seller').length,
      });
      expect(text).not.toMatch(/sales|commission|rank|"total/);
      for (const seller of body.sellers) expect(Object.keys(seller).sort()).toEqual(['seller_name', 'user_id']);
      // The pupils who have sold, the newcomers and the teacher not among them, in Swedish name order.
      const started = members.filter((m) => m.role === 'seller' && !newcomers.some((n) => n.id === Number(m.user_id)));
      expect(body.sellers.map((s) => s.seller_name)).toEqual(started.map((m) => m.full_name).sort(new Intl.Collator('sv-SE').compare));
    }
    const totals = await ok<TGroupTotalsResponse>('GET', '/api/group/totals', tokens.noah);
    expect(totals.leaderboard_mode).toBe('participation');
  });

  it("'own_only' sends the caller's own figures, the class total and the share started, and nobody else's", async () => {
    await setMode('own_only');
    const members = await names(group);
    const noah = await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2');
    const summary = await ok<TMeSummaryResponse>('GET', '/api/me/summary', tokens.noah);
    const totals = await ok<TGroupTotalsResponse>('GET', '/api/group/totals', tokens.noah);
    const { body, text } = await call<TLeaderboardResponse>('GET', '/api/group/leaderboard-mine', tokens.noah);
    expect(body).toEqual({
      mode: 'own_only',
      group: { leaderboard_visible: true },
      participation: totals.participation,
      own: { sales: summary.personal.total_sales, commission: summary.personal.total_commission },
      total_sales: totals.totals.total_sales,
    });
    for (const member of members) {
      if (Number(member.user_id) === noah.userId) continue;
      expect(text).not.toContain(member.full_name);
      expect(text).not.toContain(member.full_name.split(' ')[0]!);
    }
    expect(text).not.toContain('user_id');
    // The same holds for the teacher: the mode is what the class sees, and the teacher sees it too.
    const teacherView = await call<TLeaderboardResponse>('GET', '/api/group/leaderboard-mine', tokens.teacher);
    expect(teacherView.body.mode).toBe('own_only');
    for (const member of members) expect(teacherView.text).not.toContain(member.full_name);
  });

  it("'full' is the default and spec §6's list, and a hidden list stays withheld from sellers in every mode", async () => {
    await setMode('full');
    const full = await ok<TLeaderboardResponse>('GET', '/api/group/leaderboard-mine', tokens.noah);
    expect(full.mode === 'full' && full.items.length).toBe((await names(group)).length);

    await ok('POST', '/api/group/settings', tokens.teacher, { group_id: group, show_leaderboard: false });
    expect(await ok('GET', '/api/group/leaderboard-mine', tokens.noah)).toEqual({
      mode: 'full',
      group: { leaderboard_visible: false },
      items: [],
    });
    await setMode('participation');
    const participation = await ok<TLeaderboardResponse>('GET', '/api/group/leaderboard-mine', tokens.noah);
    expect(participation).toMatchObject({ mode: 'participation', group: { leaderboard_visible: false }, sellers: [] });
    const teacher = await ok<TLeaderboardResponse>('GET', '/api/group/leaderboard-mine', tokens.teacher);
    expect(teacher.mode === 'participation' && teacher.sellers.length).toBeGreaterThan(0);
    await ok('POST', '/api/group/settings', tokens.teacher, { group_id: group, show_leaderboard: true, leaderboard_mode: 'full' });
  });

  it('moves the leaderboard cache version on a mode change, so a cached list is never sent in the new mode', async () => {
    const version = async () =>
      Number(
        (await sqlRows<{ version: string }>(server.app.db, sql`select version::text from group_figures where group_id = ${group}`))[0]!
          .version,
      );
    // Warm the cache in 'full', then switch: the next answer is the new mode's, not the cached list.
    expect((await ok<TLeaderboardResponse>('GET', '/api/group/leaderboard-mine', tokens.noah)).mode).toBe('full');
    const before = await version();
    await setMode('participation');
    expect(await version()).toBeGreaterThan(before);
    expect((await ok<TLeaderboardResponse>('GET', '/api/group/leaderboard-mine', tokens.noah)).mode).toBe('participation');
    const between = await version();
    // Only the visibility changes: no new version is needed (the answer is per visibility already).
    await ok('POST', '/api/group/settings', tokens.teacher, { group_id: group, show_leaderboard: true });
    expect(await version()).toBe(between);
    await setMode('full');
    expect((await ok<TLeaderboardResponse>('GET', '/api/group/leaderboard-mine', tokens.noah)).mode).toBe('full');
  });

  it("refuses a mode from a seller, another group's admin or a superadmin, and an unknown mode with a Swedish 400", async () => {
    for (const token of [tokens.noah, tokens.otherAdmin, tokens.superadmin]) {
      const answer = await call('POST', '/api/group/settings', token, { group_id: group, leaderboard_mode: 'own_only' });
      expect(answer.status).toBe(403);
    }
    const bad = await call<{ error: { message: string } }>('POST', '/api/group/settings', tokens.teacher, {
      group_id: group,
      leaderboard_mode: 'topp3',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('Ogiltigt läge för topplistan');
    const [row] = await sqlRows<{ leaderboard_mode: string }>(
      server.app.db,
      sql`select leaderboard_mode::text from groups where id = ${group}`,
    );
    expect(row!.leaderboard_mode).toBe('full');
  });
});
