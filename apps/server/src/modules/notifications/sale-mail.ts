import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { guardianLinks, saleMailCursors, users } from '../../db/schema.js';
import { formatOreAsSek, firstNameOf } from '../../lib/format.js';
import { portal, renderMail, type MailBlock } from '../../lib/mail-template.js';
import type { Mail } from '../../lib/mailer.js';
import { enqueueMails } from '../../db/mail-outbox.js';
import type { ScheduledJob } from '../../db/scheduled-job.js';
import { membershipSalesOfUser, selectSaleMailRows } from '../figures/notification-figures.js';
import { isQuietHour } from './stockholm-clock.js';

export const SALE_MAIL_JOB = 'sale-mail';

/**
 * Where the sale mail starts counting when a seller opts in: each membership's sales now, so the
 * first mail tells of what sells from here on, not of everything sold before.
 */
export async function startSaleMailCursors(tx: Tx, userId: number): Promise<void> {
  for (const { membershipId, salesOre } of await membershipSalesOfUser(tx, userId)) {
    await tx
      .insert(saleMailCursors)
      .values({ membershipId, mailedSalesOre: salesOre })
      .onConflictDoUpdate({ target: saleMailCursors.membershipId, set: { mailedSalesOre: salesOre } });
  }
}

type SaleMailRow = Awaited<ReturnType<typeof selectSaleMailRows>>[number];
interface Sold {
  groupName: string;
  sinceOre: number;
  totalOre: number;
}

/**
 * Moves a membership's cursor to `salesOre`, only if it still is where this run read it: of two
 * runs that overlap (a slow hour, two processes), one mails a sale and the other does not.
 */
async function moveCursor(tx: Tx, row: SaleMailRow, now: Date, mailed: boolean): Promise<boolean> {
  const set = { mailedSalesOre: row.salesOre, ...(mailed ? { mailedAt: now } : {}) };
  const moved = row.hasCursor
    ? await tx
        .update(saleMailCursors)
        .set(set)
        .where(and(eq(saleMailCursors.membershipId, row.membershipId), eq(saleMailCursors.mailedSalesOre, row.mailedSalesOre)))
        .returning({ id: saleMailCursors.membershipId })
    : await tx
        .insert(saleMailCursors)
        .values({ membershipId: row.membershipId, ...set })
        .onConflictDoNothing()
        .returning({ id: saleMailCursors.membershipId });
  return moved.length > 0;
}

/** Who receives a seller's sale mail: the seller, or for a pupil under 13 each approved guardian (never the child). */
async function recipientsOf(tx: Tx, seller: SaleMailRow): Promise<{ email: string; fullName: string; guardian: boolean }[]> {
  // A class-list pupil without an address of their own is mailed as a child is: through the guardians (issue 31).
  if (!seller.isUnder13 && seller.email !== null) return [{ email: seller.email, fullName: seller.fullName, guardian: false }];
  const guardians = await tx
    .select({ email: users.email, fullName: users.fullName })
    .from(guardianLinks)
    .innerJoin(users, eq(users.id, guardianLinks.guardianUserId))
    .where(and(eq(guardianLinks.childUserId, seller.userId), isNotNull(guardianLinks.approvedAt), isNull(users.erasedAt)));
  return guardians.flatMap((guardian) => (guardian.email === null ? [] : [{ ...guardian, email: guardian.email, guardian: true }]));
}

/**
 * The mail itself: how much the link sold since the last mail and in all, in whole kronor, in
 * words a child understands. It never says who bought: the job does not even read the orders.
 */
export function saleMail(options: {
  to: { email: string; fullName: string; guardian: boolean };
  seller: { fullName: string };
  sold: Sold[];
  publicUrl: string;
}): Mail {
  const { to, sold } = options;
  const child = firstNameOf(options.seller.fullName);
  const sinceOre = sold.reduce((sum, entry) => sum + entry.sinceOre, 0);
  const since = formatOreAsSek(sinceOre);
  const inGroup = (entry: Sold) => (sold.length > 1 ? ` i ${entry.groupName}` : '');
  const figures: MailBlock[] = sold.map((entry) =>
    to.guardian
      ? // The portal's words first, the child's name after them (issue 28): no paragraph opens with what someone typed.
        `Med sin personliga länk${inGroup(entry)} har ${child} sålt för ${formatOreAsSek(entry.sinceOre)} sedan förra mejlet. Totalt har länken sålt för ${formatOreAsSek(entry.totalOre)}.`
      : `Din personliga länk${inGroup(entry)} har sålt för ${formatOreAsSek(entry.sinceOre)} sedan förra mejlet. Totalt har den sålt för ${formatOreAsSek(entry.totalOre)}.`,
  );
  const why = to.guardian
    ? `Du får det här mejlet för att du är vårdnadshavare till ${child}, som har valt ”Mejla mig när jag säljer”. Det går att stänga av under Kontoinställningar när ${child} är inloggad.`
    : 'Du får det här mejlet för att du har valt ”Mejla mig när jag säljer” under Kontoinställningar. Där kan du också stänga av det.';
  return {
    to: to.email,
    ...renderMail({
      subject: to.guardian
        ? portal`Ny försäljning! ${child} har sålt för ${since}`
        : portal`Ny försäljning! Din länk har sålt för ${since}`,
      greeting: portal`Hej ${firstNameOf(to.fullName)}!`,
      blocks: [
        ...figures,
        to.guardian ? 'Varje sak som säljs hjälper hela gruppen.' : 'Bra jobbat! Varje sak du säljer hjälper hela gruppen.',
        ...(to.guardian ? [] : [{ action: { label: 'Se din försäljning', url: `${options.publicUrl}/dashboard` } }]),
        'Vi mejlar högst en gång i timmen och aldrig mellan klockan 21 och 07.',
        why,
      ],
    }),
  };
}

/**
 * One run of the hourly sale-mail job: for every seller who opted in, the sales of each of their
 * links since its last mail (net of refunds and cancellations), in one mail, queued in the same
 * transaction that moves the cursors. Nothing sold, or less than before: no mail (a fall moves
 * the cursor down, so the next sale is told in full). Never between 21:00 and 07:00: `periodOf`
 * says not due, and the night's sales are summed into the morning's first mail.
 */
export async function queueSaleMails(db: Db, now: Date, publicUrl: string) {
  const rows = await selectSaleMailRows(db);
  const bySeller = new Map<number, SaleMailRow[]>();
  for (const row of rows) bySeller.set(row.userId, [...(bySeller.get(row.userId) ?? []), row]);
  let mails = 0;
  let sellers = 0;
  for (const sellerRows of bySeller.values()) {
    const seller = sellerRows[0]!;
    const queued = await db.transaction(async (tx) => {
      for (const fallen of sellerRows.filter((row) => row.salesOre < row.mailedSalesOre)) await moveCursor(tx, fallen, now, false);
      const risen = sellerRows.filter((row) => row.salesOre > row.mailedSalesOre);
      if (risen.length === 0) return 0;
      // A pupil under 13 with no approved guardian yet: the sales wait, summed, for the first mail a guardian can get.
      const recipients = await recipientsOf(tx, seller);
      if (recipients.length === 0) return 0;
      const sold: Sold[] = [];
      for (const row of risen) {
        if (await moveCursor(tx, row, now, true)) {
          sold.push({ groupName: row.groupName, sinceOre: row.salesOre - row.mailedSalesOre, totalOre: row.salesOre });
        }
      }
      if (sold.length === 0) return 0;
      const out = recipients.map((to) => saleMail({ to, seller, sold, publicUrl }));
      await enqueueMails(tx, out);
      return out.length;
    });
    if (queued > 0) sellers += 1;
    mails += queued;
  }
  return { sellers, mails };
}

/** The hourly sale-mail job: one period per UTC hour, none in the quiet hours. */
export function saleMailJob(options: { publicUrl: string; deliverSoon: () => Promise<void> }): ScheduledJob {
  return {
    name: SALE_MAIL_JOB,
    periodOf: (now) => (isQuietHour(now) ? null : now.toISOString().slice(0, 13)),
    async run({ db, now }) {
      const summary = await queueSaleMails(db, now, options.publicUrl);
      if (summary.mails > 0) await options.deliverSoon();
      return summary;
    },
  };
}
