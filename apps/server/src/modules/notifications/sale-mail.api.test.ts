/**
 * Issue 20, point 5: the sale mail ('Mejla mig när jag säljer'), run by the scheduler with chosen
 * clocks. November: Stockholm is UTC+1, so 09:05Z is 10:05 in Stockholm.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TProfileResponse } from '@saljportalen/contract';
import { formatOreAsSek } from '../../lib/format.js';
import { figuresFromOrders, insertOrder, membershipOf, sqlRows } from '../../../test/admin-fixtures.js';
import { sendShopifyWebhook, swedishOrder } from '../../../test/shopify-webhooks.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { SALE_MAIL_JOB } from './sale-mail.js';

const GROUP = 'BJK6B2';
const at = (iso: string) => new Date(iso);

describe('the sale mail', () => {
  let server: TestServer;
  let noah: { id: number; userId: number; groupId: number };
  let elsa: { id: number; userId: number; groupId: number };
  const run = (iso: string) => server.app.scheduledJobs.runJob(SALE_MAIL_JOB, at(iso));
  const mailsTo = (email: string) => server.mails().filter((mail) => mail.to === email);
  const salesOf = async (membershipId: number) => (await figuresFromOrders(server.app.db, sql`membership_id = ${membershipId}`)).sales_ore;
  const sale = (membership: { id: number; groupId: number }, amountOre: number, orderedAt = '2026-11-20T10:00:00Z') =>
    insertOrder(server.app.db, { membership, orderedAt: at(orderedAt), lines: [{ amountOre }] });

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    noah = await membershipOf(server.app.db, 'noah@demo.se', GROUP);
    elsa = await membershipOf(server.app.db, 'elsa@demo.se', GROUP);
  });
  afterAll(() => server.close());

  it('is off until the seller opts in, and then tells only of what sells after', async () => {
    const token = await server.login('noah@demo.se');
    const before = (await (await server.request('GET', '/api/account/profile', { token })).json()) as TProfileResponse;
    expect(before.notifications).toEqual({ sale_mail: false, weekly_summary: false, weekly_summary_offered: false });

    await sale(noah, 24_900);
    await sale(elsa, 10_000);
    // Nobody has opted in: the job runs and mails nobody.
    expect(await run('2026-11-23T08:05:00Z')).toMatchObject({ kind: 'ran', summary: { mails: 0 } });

    const response = await server.request('POST', '/api/account/notifications', { token, body: { sale_mail: true } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ sale_mail: true, weekly_summary: false });
    const after = (await (await server.request('GET', '/api/account/profile', { token })).json()) as TProfileResponse;
    expect(after.notifications.sale_mail).toBe(true);

    // What Noah sold before he opted in is not news; Elsa, who did not opt in, sells and gets nothing.
    await sale(elsa, 10_000);
    expect(await run('2026-11-23T09:05:00Z')).toMatchObject({ kind: 'ran', summary: { mails: 0 } });
    expect(mailsTo('noah@demo.se')).toEqual([]);
    expect(mailsTo('elsa@demo.se')).toEqual([]);
  });

  it('sends at most one mail an hour, and sums the later sales into the next', async () => {
    await sale(noah, 24_900);
    expect(await run('2026-11-23T10:05:00Z')).toMatchObject({ kind: 'ran', summary: { sellers: 1, mails: 1 } });
    const [first] = mailsTo('noah@demo.se');
    expect(first?.subject).toBe(`Ny försäljning! Din länk har sålt för ${formatOreAsSek(24_900)}`);
    expect(first?.text).toContain(`Din personliga länk har sålt för ${formatOreAsSek(24_900)} sedan förra mejlet.`);
    expect(first?.text).toContain(`Totalt har den sålt för ${formatOreAsSek(await salesOf(noah.id))}.`);
    expect(first?.html).toContain('Se din försäljning');

    // Two more sales in the same hour: the hour has had its mail.
    await sale(noah, 10_000);
    await sale(noah, 5_000);
    expect(await run('2026-11-23T10:40:00Z')).toEqual({ kind: 'already_claimed', period: '2026-11-23T10' });
    expect(mailsTo('noah@demo.se')).toHaveLength(1);

    // The next hour's mail carries both.
    expect(await run('2026-11-23T11:02:00Z')).toMatchObject({ kind: 'ran', summary: { mails: 1 } });
    const second = mailsTo('noah@demo.se')[1];
    expect(second?.subject).toBe(`Ny försäljning! Din länk har sålt för ${formatOreAsSek(15_000)}`);
    expect(second?.text).toContain(`Totalt har den sålt för ${formatOreAsSek(await salesOf(noah.id))}.`);

    // Nothing sold since: no mail.
    expect(await run('2026-11-23T12:05:00Z')).toMatchObject({ kind: 'ran', summary: { mails: 0 } });
    expect(mailsTo('noah@demo.se')).toHaveLength(2);
  });

  it('never mails a negative amount, and tells the next sale in full after a refund', async () => {
    await insertOrder(server.app.db, {
      membership: noah,
      orderedAt: at('2026-11-23T12:30:00Z'),
      state: 'refunded',
      lines: [{ amountOre: 10_000 }, { amountOre: -10_000, kind: 'refund' }],
    });
    await insertOrder(server.app.db, {
      membership: noah,
      orderedAt: at('2026-11-23T12:31:00Z'),
      lines: [{ amountOre: -5_000, kind: 'refund' }],
    });
    expect(await run('2026-11-23T13:05:00Z')).toMatchObject({ kind: 'ran', summary: { mails: 0 } });
    await sale(noah, 24_900);
    expect(await run('2026-11-23T14:05:00Z')).toMatchObject({ kind: 'ran', summary: { mails: 1 } });
    expect(mailsTo('noah@demo.se')[2]?.subject).toBe(`Ny försäljning! Din länk har sålt för ${formatOreAsSek(24_900)}`);
  });

  it('mails nothing at night: the night’s sales come in the morning’s first mail', async () => {
    await sale(noah, 11_900, '2026-11-23T20:10:00Z'); // 21:10 in Stockholm
    expect(await run('2026-11-23T21:30:00Z')).toEqual({ kind: 'not_due' }); // 22:30
    await sale(noah, 20_000, '2026-11-24T02:00:00Z'); // 03:00
    expect(await run('2026-11-24T02:30:00Z')).toEqual({ kind: 'not_due' }); // 03:30
    expect(await run('2026-11-24T05:59:00Z')).toEqual({ kind: 'not_due' }); // 06:59
    expect(mailsTo('noah@demo.se')).toHaveLength(3);

    expect(await run('2026-11-24T06:00:00Z')).toMatchObject({ kind: 'ran', period: '2026-11-24T06', summary: { mails: 1 } }); // 07:00
    expect(mailsTo('noah@demo.se')[3]?.subject).toBe(`Ny försäljning! Din länk har sålt för ${formatOreAsSek(31_900)}`);
    const [cursor] = await sqlRows<{ mailed_at: Date | string }>(
      server.app.db,
      sql`select mailed_at from sale_mail_cursors where membership_id = ${noah.id}`,
    );
    expect(new Date(cursor!.mailed_at).toISOString()).toBe('2026-11-24T06:00:00.000Z');
  });

  it('goes to the approved guardians of a pupil under 13, never to the child; none for a pupil awaiting consent or erased', async () => {
    const db = server.app.db;
    const others = await sqlRows<{ email: string; membership_id: number; user_id: number }>(
      db,
      sql`select u.email, m.id as membership_id, u.id as user_id from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
          where g.code = ${GROUP} and m.role = 'seller' and u.email not in ('noah@demo.se', 'elsa@demo.se') order by u.id limit 3`,
    );
    const [child, waiting, erased] = others.map((row) => ({
      email: row.email,
      id: Number(row.membership_id),
      userId: Number(row.user_id),
      groupId: noah.groupId,
    }));
    for (const pupil of [child!, waiting!, erased!]) {
      const token = await server.login(pupil.email);
      expect((await server.request('POST', '/api/account/notifications', { token, body: { sale_mail: true } })).status).toBe(200);
    }
    await db.execute(sql`update users set is_under_13 = true, guardian_consent = 'approved' where id = ${child!.userId}`);
    await db.execute(sql`update users set is_under_13 = true, guardian_consent = 'pending' where id = ${waiting!.userId}`);
    await db.execute(
      sql`update users set erased_at = now(), full_name = 'Borttagen säljare', email = ${`borttagen-${erased!.userId}@invalid`} where id = ${erased!.userId}`,
    );
    const [mother, father] = await sqlRows<{ id: number }>(
      db,
      sql`insert into users (email, password_hash, full_name) values ('anna.forälder@familj.se', 'x', 'Anna Förälder'), ('pelle.forälder@familj.se', 'x', 'Pelle Förälder') returning id`,
    );
    await db.execute(sql`insert into guardian_links (child_user_id, guardian_user_id, guardian_email, approved_at)
      values (${child!.userId}, ${mother!.id}, 'anna.forälder@familj.se', now()), (${child!.userId}, ${father!.id}, 'pelle.forälder@familj.se', null)`);

    for (const pupil of [child!, waiting!, erased!]) await sale(pupil, 14_900);
    expect(await run('2026-11-24T08:05:00Z')).toMatchObject({ kind: 'ran', summary: { sellers: 1, mails: 1 } });

    const [childName] = await sqlRows<{ full_name: string }>(db, sql`select full_name from users where id = ${child!.userId}`);
    const firstName = childName!.full_name.split(' ')[0]!;
    const [toMother] = mailsTo('anna.forälder@familj.se');
    expect(toMother?.subject).toBe(`Ny försäljning! ${firstName} har sålt för ${formatOreAsSek(14_900)}`);
    expect(toMother?.text).toMatch(/^Hej Anna!/);
    expect(toMother?.text).toContain(`Med sin personliga länk har ${firstName} sålt för ${formatOreAsSek(14_900)} sedan förra mejlet.`);
    expect(mailsTo('pelle.forälder@familj.se')).toEqual([]);
    expect(mailsTo(child!.email)).toEqual([]);
    expect(mailsTo(waiting!.email)).toEqual([]);
    expect(server.mails().filter((mail) => mail.to.includes('borttagen'))).toEqual([]);
  });

  it('never tells who bought', async () => {
    const [link] = await sqlRows<{ link_code: string }>(server.app.db, sql`select link_code from memberships where id = ${noah.id}`);
    const response = await sendShopifyWebhook(
      server.url,
      'orders/create',
      swedishOrder({ id: 7_400_000_000_001, refCode: link!.link_code }),
    );
    expect(response.status).toBe(200);
    expect(await run('2026-11-24T09:05:00Z')).toMatchObject({ kind: 'ran', summary: { mails: 1 } });
    expect(mailsTo('noah@demo.se')).toHaveLength(5);

    // Shopify's sample order is John Smith's (jon@example.com), shipped to Steve Shipper.
    // (The portal keeps none of it: the stored payload is reduced at receipt, decision 035.)
    expect(JSON.stringify(swedishOrder({ id: 7_400_000_000_001, refCode: link!.link_code }))).toContain('Smith');
    for (const mail of server.mails()) {
      const whole = `${mail.subject}\n${mail.text}\n${mail.html ?? ''}`;
      for (const buyer of ['John', 'Smith', 'Steve', 'Shipper', 'example.com', 'Ottawa']) expect(whole).not.toContain(buyer);
    }
  });
});
