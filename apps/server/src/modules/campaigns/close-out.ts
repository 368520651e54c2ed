import { and, asc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { formatCampaignDay } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { enqueueMails } from '../../db/mail-outbox.js';
import { groups } from '../../db/schema.js';
import type { ScheduledJob } from '../../db/scheduled-job.js';
import { stockholmDate } from '../../lib/dates.js';
import { formatOreAsSek, firstNameOf } from '../../lib/format.js';
import { portal, renderMail, type MailBlock } from '../../lib/mail-template.js';
import type { Mail } from '../../lib/mailer.js';
import { groupFinalFigures } from '../figures/notification-figures.js';
import { isQuietHour } from '../notifications/stockholm-clock.js';
import { goalProgress } from '../notifications/weekly-summary.js';
import { writeAudit } from '../audit/write-audit.js';
import { classRecipients, type ClassRecipient } from './class-recipients.js';

export const CAMPAIGN_CLOSE_OUT_JOB = 'campaign-close-out';

export interface ClassResult {
  groupName: string;
  endsOn: string;
  salesOre: number;
  commissionOre: number;
  goal: { ore: number; purpose: string } | null;
  participation: { started: number; members: number };
}

/**
 * The close-out mail (issue 31 point 4): the class's total, its goal and whether it was reached,
 * how many took part. The class's figures only: no ranking, no pupil's amount, no pupil's name.
 */
export function closeOutMail(options: { to: ClassRecipient; result: ClassResult; today: string; publicUrl: string }): Mail {
  const { result, to } = options;
  const blocks: MailBlock[] = [
    `Försäljningen för ${result.groupName} avslutades ${formatCampaignDay(result.endsOn, options.today)}. Tack till alla som sålde och till alla som köpte!`,
    `Klassen sålde för ${formatOreAsSek(result.salesOre)} och fick ${formatOreAsSek(result.commissionOre)} i provision.`,
  ];
  if (result.goal) {
    const { percent } = goalProgress(result.goal.ore, result.commissionOre);
    blocks.push(
      percent >= 100
        ? `Målet var ${formatOreAsSek(result.goal.ore)} till ${result.goal.purpose}, och klassen nådde det!`
        : `Målet var ${formatOreAsSek(result.goal.ore)} till ${result.goal.purpose}. Klassen kom ${percent} % av vägen.`,
    );
  }
  blocks.push(`${result.participation.started} av ${result.participation.members} elever var med och sålde.`);
  blocks.push(
    to.as === 'teacher'
      ? 'Provisionen betalas ut till klassen när försäljningen är avräknad. Skriv gärna några rader om vad pengarna blev: de mejlas till vårdnadshavarna och visas för eleverna.'
      : 'Läraren berättar senare vad pengarna blev.',
  );
  blocks.push(
    { action: { label: 'Öppna Säljportalen', url: `${options.publicUrl}/dashboard` } },
    'Mejlet visar bara hela klassens siffror, aldrig enskilda elevers.',
  );
  return {
    to: to.email,
    ...renderMail({
      subject: portal`Försäljningen är avslutad: ${result.groupName}`,
      greeting: to.as === 'teacher' ? portal`Hej ${firstNameOf(to.fullName)}!` : portal`Hej!`,
      blocks,
    }),
  };
}

/**
 * Closes out every campaign whose last day is before `today` (Stockholm) and that has not been
 * closed out: each in its own transaction that first claims the group (`campaign_closed_at`, set
 * only where it is null), so that with any number of processes a campaign is closed out once, and
 * its mails are queued in the same transaction as the claim.
 */
export async function closeOutEndedCampaigns(db: Db, now: Date, publicUrl: string): Promise<{ campaigns: number; mails: number }> {
  const today = stockholmDate(now);
  const due = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(isNull(groups.campaignClosedAt), isNotNull(groups.campaignEndsOn), lt(groups.campaignEndsOn, today)))
    .orderBy(asc(groups.campaignEndsOn), asc(groups.id));
  let campaigns = 0;
  let mails = 0;
  for (const { id } of due) {
    const queued = await db.transaction(async (tx) => {
      const [group] = await tx
        .update(groups)
        .set({ campaignClosedAt: sql`now()` })
        .where(and(eq(groups.id, id), isNull(groups.campaignClosedAt)))
        .returning({
          name: groups.name,
          endsOn: groups.campaignEndsOn,
          goalOre: groups.goalOre,
          goalPurpose: groups.goalPurpose,
        });
      if (!group) return null;
      const figures = await groupFinalFigures(tx, id);
      const result: ClassResult = {
        groupName: group.name,
        endsOn: group.endsOn!,
        salesOre: figures.allTime.salesOre,
        commissionOre: figures.allTime.commissionOre,
        goal: group.goalOre !== null && group.goalPurpose !== null ? { ore: group.goalOre, purpose: group.goalPurpose } : null,
        participation: figures.participation,
      };
      const recipients = await classRecipients(tx, id, { teachers: true });
      await enqueueMails(
        tx,
        recipients.map((to) => closeOutMail({ to, result, today, publicUrl })),
      );
      await writeAudit(tx, {
        actorUserId: null,
        action: 'group.campaign_closed',
        targetType: 'group',
        targetId: id,
        details: { ends_on: group.endsOn, mails: recipients.length },
      });
      return recipients.length;
    });
    if (queued === null) continue;
    campaigns += 1;
    mails += queued;
  }
  return { campaigns, mails };
}

/** Hourly outside the quiet hours: a campaign that ended at midnight is closed out from 07:00. */
export function campaignCloseOutJob(options: { publicUrl: string; deliverSoon: () => Promise<void> }): ScheduledJob {
  return {
    name: CAMPAIGN_CLOSE_OUT_JOB,
    periodOf: (now) => (isQuietHour(now) ? null : now.toISOString().slice(0, 13)),
    async run({ db, now }) {
      const summary = await closeOutEndedCampaigns(db, now, options.publicUrl);
      if (summary.mails > 0) await options.deliverSoon();
      return summary;
    },
  };
}
