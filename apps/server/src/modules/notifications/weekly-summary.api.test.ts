/**
 * Issue 20, point 6: the group admin's weekly summary, run by the scheduler with chosen clocks.
 * Week 47 of 2026 is Monday 16 to Sunday 22 November; Stockholm is UTC+1 then.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TProfileResponse } from '@saljportalen/contract';
import { formatOreAsSek } from '../../lib/format.js';
import { figuresFromOrders, groupIdByCode, insertOrder, membershipOf, sqlRows } from '../../../test/admin-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { WEEKLY_SUMMARY_JOB } from './weekly-summary.js';

const GROUP = 'BJK6B2';
const ADMIN = 'larare@bjorkskolan.se';
const at = (iso: string) => new Date(iso);

describe('the weekly summary', () => {
  let server: TestServer;
  let groupId: number;
  const run = (iso: string) => server.app.scheduledJobs.runJob(WEEKLY_SUMMARY_JOB, at(iso));
  const mailsTo = (email: string) => server.mails().filter((mail) => mail.to === email);

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    groupId = await groupIdByCode(server.app.db, GROUP);
  });
  afterAll(() => server.close());

  it('is offered to group admins only, and the server refuses it to a seller', async () => {
    const adminToken = await server.login(ADMIN);
    const profile = (await (await server.request('GET', '/api/account/profile', { token: adminToken })).json()) as TProfileResponse;
    expect(profile.notifications).toEqual({ sale_mail: false, weekly_summary: false, weekly_summary_offered: true });
    const response = await server.request('POST', '/api/account/notifications', { token: adminToken, body: { weekly_summary: true } });
    expect(await response.json()).toEqual({ sale_mail: false, weekly_summary: true });

    const sellerToken = await server.login('noah@demo.se');
    const refused = await server.request('POST', '/api/account/notifications', { token: sellerToken, body: { weekly_summary: true } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'Veckosammanfattningen är till för gruppens administratörer',
    );
    // Turning it off is never refused, and bad input is a 400 in Swedish.
    expect(
      (await server.request('POST', '/api/account/notifications', { token: sellerToken, body: { weekly_summary: false } })).status,
    ).toBe(200);
    const empty = await server.request('POST', '/api/account/notifications', { token: sellerToken, body: {} });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { message: string } }).error.message).toBe('Ange vilken inställning som ska ändras');
    expect((await server.request('POST', '/api/account/notifications', { token: sellerToken, body: { sale_mail: 'ja' } })).status).toBe(
      400,
    );
  });

  it('runs on Monday morning with last week’s sales, the goal and how many have started, naming no pupil', async () => {
    const db = server.app.db;
    await db.execute(
      sql`update groups set goal_ore = 1000000, goal_purpose = 'Klassresa till Liseberg', goal_ends_on = '2026-12-20' where id = ${groupId}`,
    );
    // The archived group's admin opted in too: an archived group gets no summary. Another admin did not opt in.
    await db.execute(sql`update users set weekly_summary = true where email = 'mentor@ekskolan.se'`);
    const noah = await membershipOf(db, 'noah@demo.se', GROUP);
    const elsa = await membershipOf(db, 'elsa@demo.se', GROUP);
    // Monday 00:30 and Sunday 23:30 in Stockholm are in week 47; the next Monday 00:30 is not.
    await insertOrder(db, { membership: noah, orderedAt: at('2026-11-15T23:30:00Z'), lines: [{ amountOre: 24_900 }] });
    await insertOrder(db, {
      membership: elsa,
      orderedAt: at('2026-11-18T10:00:00Z'),
      lines: [{ amountOre: 49_800 }, { amountOre: 11_900 }],
    });
    await insertOrder(db, { membership: noah, orderedAt: at('2026-11-22T22:30:00Z'), lines: [{ amountOre: 15_000 }] });
    await insertOrder(db, { membership: noah, orderedAt: at('2026-11-22T23:30:00Z'), lines: [{ amountOre: 99_900 }] });

    expect(await run('2026-11-22T12:00:00Z')).toEqual({ kind: 'not_due' }); // Sunday
    expect(await run('2026-11-23T05:30:00Z')).toEqual({ kind: 'not_due' }); // Monday 06:30
    expect(await run('2026-11-23T06:10:00Z')).toMatchObject({ kind: 'ran', period: '2026-W47', summary: { mails: 1, groups: 1 } });
    expect(await run('2026-11-23T09:00:00Z')).toEqual({ kind: 'already_claimed', period: '2026-W47' });
    expect(await run('2026-11-24T06:10:00Z')).toEqual({ kind: 'not_due' }); // Tuesday

    const week = await figuresFromOrders(
      db,
      sql`group_id = ${groupId} and ordered_at >= '2026-11-15T23:00:00Z' and ordered_at < '2026-11-22T23:00:00Z'`,
    );
    expect(week.sales_ore).toBeGreaterThanOrEqual(24_900 + 49_800 + 11_900 + 15_000);
    const allTime = await figuresFromOrders(db, sql`group_id = ${groupId}`);
    const [participation] = await sqlRows<{ started: string; members: string }>(
      db,
      sql`select count(*) filter (where exists (select 1 from orders o where o.membership_id = m.id and o.state <> 'cancelled')) as started,
                 count(*) as members
          from memberships m join users u on u.id = m.user_id where m.group_id = ${groupId} and m.role = 'seller' and u.erased_at is null`,
    );

    const mails = mailsTo(ADMIN);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.subject).toBe('Veckosammanfattning för Klass 6B Björkskolan, vecka 47');
    expect(mail?.text).toContain('Så här gick det förra veckan, vecka 47 (2026-11-16 – 2026-11-22).');
    expect(mail?.text).toContain(
      `Klass 6B Björkskolan: sålt för ${formatOreAsSek(week.sales_ore)} förra veckan, ${formatOreAsSek(week.commission_ore)} i provision till gruppen.`,
    );
    expect(mail?.text).toContain(`Totalt har gruppen sålt för ${formatOreAsSek(allTime.sales_ore)}`);
    const percent = Math.floor((allTime.commission_ore / 1_000_000) * 100);
    expect(mail?.text).toContain(
      `Vi samlar till: Klassresa till Liseberg. Mot målet: ${formatOreAsSek(allTime.commission_ore)} av ${formatOreAsSek(1_000_000)} i provision (${percent} %). 27 dagar kvar, till 2026-12-20.`,
    );
    expect(mail?.text).toContain(`${Number(participation!.started)} av ${Number(participation!.members)} har sålt.`);
    expect(Number(participation!.started)).toBeLessThan(Number(participation!.members) + 1);

    // No pupil's name, first or last, anywhere in the mail; no ranking words.
    const pupils = await sqlRows<{ full_name: string }>(
      db,
      sql`select u.full_name from memberships m join users u on u.id = m.user_id where m.group_id = ${groupId} and m.role = 'seller'`,
    );
    const names = new Set(pupils.flatMap((pupil) => pupil.full_name.split(/\s+/)));
    expect(names.size).toBeGreaterThan(2);
    for (const part of [mail!.subject, mail!.text, mail!.html ?? '']) {
      const words = part.split(/[^\p{L}]+/u);
      expect(words.filter((word) => names.has(word))).toEqual([]);
      expect(part).not.toMatch(/inte börjat|inte sålt|plats|topplista|bäst/i);
    }
    expect(mailsTo('mentor@ekskolan.se')).toEqual([]);
    expect(mailsTo('tranare@savedalen.se')).toEqual([]);
  });

  it('says so when the week had no sales, and leaves out a goal that is not set', async () => {
    await server.app.db.execute(sql`update groups set goal_ore = null, goal_purpose = null, goal_ends_on = null where id = ${groupId}`);
    // Week 48 (23–29 November) has no orders of the group.
    await server.app.db.execute(sql`delete from orders where group_id = ${groupId} and ordered_at >= '2026-11-22T23:00:00Z'`);
    expect(await run('2026-11-30T07:00:00Z')).toMatchObject({ kind: 'ran', period: '2026-W48', summary: { mails: 1 } });
    const mail = mailsTo(ADMIN)[1];
    expect(mail?.text).toContain('Klass 6B Björkskolan: ingen försäljning förra veckan.');
    expect(mail?.text).not.toContain('Vi samlar till');
    expect(mail?.text).not.toContain('Mot målet');
  });
});
