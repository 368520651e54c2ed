import { differenceInCalendarDays } from 'date-fns';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { groups, memberships, users } from '../../db/schema.js';
import { formatOreAsSek, firstNameOf } from '../../lib/format.js';
import { portal, renderMail, type MailBlock } from '../../lib/mail-template.js';
import type { Mail } from '../../lib/mailer.js';
import { enqueueMails } from '../../db/mail-outbox.js';
import type { ScheduledJob } from '../../db/scheduled-job.js';
import { groupWeekFigures } from '../figures/notification-figures.js';
import { isQuietHour, previousStockholmWeek, stockholmClock } from './stockholm-clock.js';

export const WEEKLY_SUMMARY_JOB = 'weekly-summary';

type WeekFigures = Awaited<ReturnType<typeof groupWeekFigures>>;
interface GroupSummary {
  name: string;
  goal: { ore: number; purpose: string | null; endsOn: string | null } | null;
  figures: WeekFigures;
}

/**
 * How far the class has come towards its goal: the commission the group has earned (what the
 * class gets for its trip), against the goal's amount. Decision 042.
 */
export function goalProgress(goalOre: number, commissionOre: number): { percent: number } {
  return { percent: goalOre > 0 ? Math.max(0, Math.floor((commissionOre / goalOre) * 100)) : 0 };
}

function goalBlock(goal: NonNullable<GroupSummary['goal']>, commissionOre: number, today: string): string {
  const { percent } = goalProgress(goal.ore, commissionOre);
  const purpose = goal.purpose ? `Vi samlar till: ${goal.purpose}. ` : '';
  let ends = '';
  if (goal.endsOn) {
    const daysLeft = differenceInCalendarDays(new Date(`${goal.endsOn}T12:00:00Z`), new Date(`${today}T12:00:00Z`));
    ends =
      daysLeft > 1
        ? ` ${daysLeft} dagar kvar, till ${goal.endsOn}.`
        : daysLeft === 1
          ? ` 1 dag kvar, till ${goal.endsOn}.`
          : daysLeft === 0
            ? ' Sista dagen är i dag.'
            : ` Slutdatumet ${goal.endsOn} har passerat.`;
  }
  return `${purpose}Mot målet: ${formatOreAsSek(commissionOre)} av ${formatOreAsSek(goal.ore)} i provision (${percent} %).${ends}`;
}

/**
 * The weekly summary of a group admin: per group they run, last week's sales, the goal's
 * progress and how many of the class have started. Counts and sums only: it names no pupil,
 * ranks nobody and lists nobody as not started.
 */
export function weeklySummaryMail(options: {
  to: { email: string; fullName: string };
  week: { from: string; to: string; week: number };
  today: string;
  groups: GroupSummary[];
  publicUrl: string;
}): Mail {
  const { week } = options;
  const blocks: MailBlock[] = [`Så här gick det förra veckan, vecka ${week.week} (${week.from} – ${week.to}).`];
  for (const group of options.groups) {
    const { figures } = group;
    blocks.push(
      `${group.name}: ${
        figures.week.salesOre > 0
          ? `sålt för ${formatOreAsSek(figures.week.salesOre)} förra veckan, ${formatOreAsSek(figures.week.commissionOre)} i provision till gruppen.`
          : 'ingen försäljning förra veckan.'
      } Totalt har gruppen sålt för ${formatOreAsSek(figures.allTime.salesOre)} och tjänat ${formatOreAsSek(figures.allTime.commissionOre)} i provision.`,
    );
    if (group.goal) blocks.push(goalBlock(group.goal, figures.allTime.commissionOre, options.today));
    blocks.push(`${figures.participation.started} av ${figures.participation.members} har sålt.`);
  }
  blocks.push(
    { action: { label: 'Öppna Säljportalen', url: `${options.publicUrl}/dashboard` } },
    'Sammanfattningen visar bara hela gruppens siffror, aldrig enskilda elevers.',
    'Du får det här mejlet för att du har valt veckosammanfattningen under Kontoinställningar. Där kan du också stänga av den.',
  );
  const subject =
    options.groups.length === 1
      ? portal`Veckosammanfattning för ${options.groups[0]!.name}, vecka ${week.week}`
      : portal`Veckosammanfattning för dina grupper, vecka ${week.week}`;
  return { to: options.to.email, ...renderMail({ subject, greeting: portal`Hej ${firstNameOf(options.to.fullName)}!`, blocks }) };
}

/** One run: a mail to every group admin who opted in, about the active groups they run. */
export async function queueWeeklySummaries(db: Db, now: Date, publicUrl: string) {
  const week = previousStockholmWeek(now);
  const today = stockholmClock(now).date;
  const rows = await db
    .select({
      userId: users.id,
      email: users.email,
      fullName: users.fullName,
      groupId: groups.id,
      groupName: groups.name,
      goalOre: groups.goalOre,
      goalPurpose: groups.goalPurpose,
      goalEndsOn: groups.goalEndsOn,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(and(eq(memberships.role, 'admin'), eq(users.weeklySummary, true), isNull(users.erasedAt), eq(groups.archived, false)))
    .orderBy(asc(users.id), asc(groups.name), asc(groups.id));
  const byAdmin = new Map<number, typeof rows>();
  for (const row of rows) byAdmin.set(row.userId, [...(byAdmin.get(row.userId) ?? []), row]);

  const figuresOf = new Map<number, WeekFigures>();
  let mails = 0;
  for (const adminRows of byAdmin.values()) {
    const summaries: GroupSummary[] = [];
    for (const row of adminRows) {
      let figures = figuresOf.get(row.groupId);
      if (!figures) {
        figures = await groupWeekFigures(db, row.groupId, week);
        figuresOf.set(row.groupId, figures);
      }
      summaries.push({
        name: row.groupName,
        goal: row.goalOre === null ? null : { ore: row.goalOre, purpose: row.goalPurpose, endsOn: row.goalEndsOn },
        figures,
      });
    }
    const admin = adminRows[0]!;
    // A class-list pupil, who has no address, runs no group; an admin without one gets no mail.
    if (admin.email === null) continue;
    const mail = weeklySummaryMail({ to: { email: admin.email, fullName: admin.fullName }, week, today, groups: summaries, publicUrl });
    await db.transaction((tx) => enqueueMails(tx, [mail]));
    mails += 1;
  }
  return { week: week.label, mails, groups: figuresOf.size };
}

/** The weekly job: due on Monday from 07:00 Stockholm time, one period per reported week. */
export function weeklySummaryJob(options: { publicUrl: string; deliverSoon: () => Promise<void> }): ScheduledJob {
  return {
    name: WEEKLY_SUMMARY_JOB,
    periodOf: (now) => (stockholmClock(now).isoWeekday === 1 && !isQuietHour(now) ? previousStockholmWeek(now).label : null),
    async run({ db, now }) {
      const summary = await queueWeeklySummaries(db, now, options.publicUrl);
      if (summary.mails > 0) await options.deliverSoon();
      return summary;
    },
  };
}
