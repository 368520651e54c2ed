import { RETENTION } from '@saljportalen/contract';
import { and, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import {
  guardianLinks,
  linkClicksPerDay,
  mailOutbox,
  passwordResetCodes,
  refreshTokens,
  removedConsentCodes,
  signInSlipCodes,
} from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { stockholmDate } from '../../lib/dates.js';
import type { MailOutbox } from '../../db/mail-outbox.js';
import type { ScheduledJob } from '../../db/scheduled-job.js';
import { reduceStoredPayloads } from '../shopify/reduce-stored-payloads.js';
import { eraseAccount } from './erase-account.js';

const monthsBefore = (now: Date, months: number) => {
  const then = new Date(now);
  then.setUTCMonth(then.getUTCMonth() - months);
  return then;
};
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);

const rowsOf = async <T>(db: Db, statement: ReturnType<typeof sql>): Promise<T[]> =>
  ((await db.execute(statement)) as unknown as { rows: T[] }).rows;

/**
 * Accounts to erase: no sign-in for 24 months (or never, since the account was made that long ago),
 * every membership in an archived group, so never a group's last admin of a group still in use, and
 * guardian of no child. Never a superadmin, never an account already erased.
 */
async function inactiveAccounts(db: Db, now: Date): Promise<number[]> {
  const cutoff = monthsBefore(now, RETENTION.inactiveAccountMonths);
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`select u.id from users u
        where not u.is_superadmin and u.erased_at is null
          and coalesce(u.last_sign_in_at, u.created_at) < ${cutoff.toISOString()}::timestamptz
          and not exists (select 1 from memberships m join groups g on g.id = m.group_id where m.user_id = u.id and not g.archived)
          and not exists (select 1 from guardian_links l where l.guardian_user_id = u.id)
        order by u.id`,
  );
  return rows.map((row) => Number(row.id));
}

/**
 * Erases each account in its own transaction. One that cannot be erased (a 409 such as a
 * tombstone address taken, or any fault) is logged by id and counted, and the run goes on with
 * the next: it is still inactive tomorrow, so the next run tries it again (issue 28).
 */
async function eraseInactiveAccounts(db: Db, now: Date, log: FastifyBaseLogger) {
  let erased = 0;
  let failed = 0;
  for (const userId of await inactiveAccounts(db, now)) {
    try {
      await db.transaction((tx) => eraseAccount(tx, userId, { actorUserId: null, reason: 'retention' }));
      erased += 1;
    } catch (error) {
      failed += 1;
      const reason = error instanceof AppError ? { code: error.code, reason: error.message } : { err: error };
      log.error({ job: 'retention', userId, ...reason }, 'kontot kunde inte raderas, nästa körning försöker igen');
    }
  }
  return { erased, failed };
}

/**
 * The daily retention run (issue 22, point 5; docs/privacy.md). Each step deletes or reduces what
 * the portal no longer needs; the summary holds counts only, and the scheduler stores and logs it.
 */
export async function runRetention(
  db: Db,
  now: Date,
  options: { log: FastifyBaseLogger; mailOutbox: Pick<MailOutbox, 'forgetFiles'> },
): Promise<Record<string, number>> {
  const summary: Record<string, number> = {};

  // Done at every start already (decision 054); here for events an older process stored since.
  summary.webhookPayloadsReduced = await reduceStoredPayloads(db);

  const oldestClickDay = stockholmDate(monthsBefore(now, RETENTION.linkClickMonths));
  summary.linkClickDaysDeleted = (
    await db.delete(linkClicksPerDay).where(lt(linkClicksPerDay.day, oldestClickDay)).returning({ day: linkClicksPerDay.day })
  ).length;

  const accounts = await eraseInactiveAccounts(db, now, options.log);
  summary.accountsErased = accounts.erased;
  summary.accountsNotErased = accounts.failed;
  // The outbox files of the erased accounts' mail go with its rows.
  const mailCutoff = daysBefore(now, RETENTION.sentMailDays);
  summary.mailsDeleted = (
    await db
      .delete(mailOutbox)
      .where(or(lt(mailOutbox.sentAt, mailCutoff), lt(mailOutbox.givenUpAt, mailCutoff)))
      .returning({ id: mailOutbox.id })
  ).length;
  summary.mailFilesDeleted = await options.mailOutbox.forgetFiles(mailCutoff);

  summary.resetCodesDeleted = (
    await db.delete(passwordResetCodes).where(lt(passwordResetCodes.expiresAt, now)).returning({ id: passwordResetCodes.id })
  ).length;
  // A sign-in slip's code (issue 31) is of no use once expired; the paper may still be lying about.
  summary.slipCodesDeleted = (
    await db.delete(signInSlipCodes).where(lt(signInSlipCodes.expiresAt, now)).returning({ id: signInSlipCodes.id })
  ).length;

  // The link row of a child still waiting for consent stays; only its code's hash goes, long after
  // the code stopped working, so an old link still says what became of it.
  const consentCodeCutoff = monthsBefore(now, RETENTION.consentCodeMonths);
  summary.consentCodesDeleted = (
    await db
      .update(guardianLinks)
      .set({ codeHash: null })
      .where(and(isNotNull(guardianLinks.codeHash), lt(guardianLinks.codeExpiresAt, consentCodeCutoff)))
      .returning({ id: guardianLinks.id })
  ).length;
  summary.removedConsentCodesDeleted = (
    await db
      .delete(removedConsentCodes)
      .where(lt(removedConsentCodes.removedAt, consentCodeCutoff))
      .returning({ codeHash: removedConsentCodes.codeHash })
  ).length;

  summary.refreshTokensDeleted = (
    await db
      .delete(refreshTokens)
      .where(or(lt(refreshTokens.expiresAt, now), lt(refreshTokens.revokedAt, daysBefore(now, RETENTION.revokedSessionDays))))
      .returning({ id: refreshTokens.id })
  ).length;

  return summary;
}

/** The job: daily by Stockholm date; the scheduler's first pass at start runs it too. */
export const retentionJob = (mailOutbox: Pick<MailOutbox, 'forgetFiles'>): ScheduledJob => ({
  name: 'retention',
  periodOf: (now) => stockholmDate(now),
  run: ({ db, now, log }) => runRetention(db, now, { log, mailOutbox }),
});
