import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { and, asc, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { mailOutbox } from '../db/schema.js';
import { RETENTION } from '@saljportalen/contract';
import { forgetOutboxFiles, mailFailureForLog, type Mail, type Mailer } from '../lib/mailer.js';
import { mails } from '../lib/metrics.js';
import type { MailOutbox } from '../db/mail-outbox.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable mail outbox's sender (issue 17); mails are queued with `enqueueMails` (db/mail-outbox.ts). */
    mailOutbox: MailOutbox;
  }
}

/** A claimed mail is leased for this long: longer than one SMTP attempt may take (lib/mailer.ts timeouts). */
const LEASE_MS = 2 * 60_000;
/** How often the sender looks for due mail when nobody wakes it (retries, other processes' mail). */
const POLL_MS = 1000;
/** Past this age a mail that still fails is given up (and logged): a reset link has long expired. */
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** Sent mail is deleted after a day, given-up mail after a week: both hold a person's address. */
const KEEP_SENT_MS = 24 * 60 * 60_000;
const KEEP_GIVEN_UP_MS = RETENTION.sentMailDays * 24 * 60 * 60_000;
const BATCH = 20;
/** Shutdown waits this long at most for a mail being sent (a hanging SMTP server must not hold it). */
const STOP_WAIT_MS = 5000;

/** The wait after the `attempts`-th failed attempt: doubling from `baseMs`, at most 30 times it. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), baseMs * 30);
}

export type MailOutcome =
  | { kind: 'sent'; mailId: number; attempts: number }
  | { kind: 'failed'; mailId: number; attempts: number; retryInMs: number; reason: string; code?: string }
  | { kind: 'given_up'; mailId: number; attempts: number; reason: string; code?: string };

/**
 * The one place where a mail's delivery outcome is known: sent, an attempt that failed (to be
 * retried), or given up. Logged here without any address, and counted (saljportalen_mails_total).
 */
export function recordMailOutcome(log: FastifyBaseLogger, outcome: MailOutcome): void {
  mails.inc({ outcome: outcome.kind });
  switch (outcome.kind) {
    case 'sent':
      log.debug({ mailId: outcome.mailId, attempts: outcome.attempts }, 'e-post skickad');
      return;
    case 'failed':
      log.warn(
        { mailId: outcome.mailId, attempts: outcome.attempts, retryInMs: outcome.retryInMs, reason: outcome.reason, code: outcome.code },
        'kunde inte skicka e-post, försöker igen senare',
      );
      return;
    case 'given_up':
      log.error(
        { mailId: outcome.mailId, attempts: outcome.attempts, reason: outcome.reason, code: outcome.code },
        'e-post kunde inte skickas på ett dygn och har getts upp',
      );
  }
}

/**
 * Delivers the outbox: claims due rows (`for update skip locked`, so several server processes on
 * one PostgreSQL never send one mail twice), leases them, sends each through the mailer (SMTP, or
 * the file outbox in DATA_DIR), and marks it sent or due again after a backoff.
 */
export function createMailSender(options: { db: Db; mailer: Mailer; log: FastifyBaseLogger; retryBaseMs: number; dataDir?: string }) {
  const { db, mailer, log } = options;
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();
  let queued: Promise<void> | null = null;
  let passes = 0;

  async function claim() {
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(isNull(mailOutbox.sentAt), isNull(mailOutbox.givenUpAt), lte(mailOutbox.nextAttemptAt, sql`now()`)))
      .orderBy(asc(mailOutbox.id))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const rows = await db
      .update(mailOutbox)
      .set({ attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: sql`now() + ${LEASE_MS} * interval '1 millisecond'` })
      .where(inArray(mailOutbox.id, due))
      .returning();
    return rows.sort((a, b) => a.id - b.id);
  }

  async function deliver(row: typeof mailOutbox.$inferSelect) {
    const mail = {
      to: row.to,
      subject: row.subject,
      text: row.text,
      ...(row.link ? { link: row.link } : {}),
      ...(row.html ? { html: row.html } : {}),
    } as Mail;
    try {
      await mailer.send(mail, row.id);
    } catch (error) {
      const { reason, code } = mailFailureForLog(error);
      const givingUp = Date.now() - row.createdAt.getTime() >= GIVE_UP_AFTER_MS;
      const retryInMs = retryDelayMs(row.attempts, options.retryBaseMs);
      await db
        .update(mailOutbox)
        .set({
          lastError: reason.slice(0, 500),
          ...(givingUp ? { givenUpAt: sql`now()` } : { nextAttemptAt: sql`now() + ${retryInMs} * interval '1 millisecond'` }),
        })
        .where(sql`${mailOutbox.id} = ${row.id}`);
      recordMailOutcome(
        log,
        givingUp
          ? { kind: 'given_up', mailId: row.id, attempts: row.attempts, reason, ...(code ? { code } : {}) }
          : { kind: 'failed', mailId: row.id, attempts: row.attempts, retryInMs, reason, ...(code ? { code } : {}) },
      );
      return;
    }
    // Sent: if this update is lost (the database went away), the lease runs out and the mail is
    // sent again. At least once, never lost.
    const marked = await db
      .update(mailOutbox)
      .set({ sentAt: sql`now()`, lastError: null })
      .where(sql`${mailOutbox.id} = ${row.id}`)
      .returning({ id: mailOutbox.id });
    recordMailOutcome(log, { kind: 'sent', mailId: row.id, attempts: row.attempts });
    // The row went while the mail was on its way: its person was erased, so its file goes too.
    if (marked.length === 0) await forgetFiles();
  }

  /** The outbox folder keeps no more than the table: a file goes with its row, and after a week at the latest. */
  async function forgetFiles(olderThan = new Date(Date.now() - RETENTION.sentMailDays * 86_400_000)): Promise<number> {
    if (!options.dataDir) return 0;
    try {
      return await forgetOutboxFiles(options.dataDir, {
        olderThan,
        existingRows: async (ids) =>
          new Set((await db.select({ id: mailOutbox.id }).from(mailOutbox).where(inArray(mailOutbox.id, ids))).map((row) => row.id)),
      });
    } catch (error) {
      // Never a failed erasure or a held-up delivery for it: the next sweep tries again.
      log.warn({ reason: mailFailureForLog(error).reason }, 'utkorgens filer kunde inte rensas');
      return 0;
    }
  }

  async function sweep() {
    await db
      .delete(mailOutbox)
      .where(
        or(
          lte(mailOutbox.sentAt, sql`now() - ${KEEP_SENT_MS} * interval '1 millisecond'`),
          lte(mailOutbox.givenUpAt, sql`now() - ${KEEP_GIVEN_UP_MS} * interval '1 millisecond'`),
        ),
      );
    await forgetFiles();
  }

  async function deliverDue() {
    if (++passes % 60 === 1) await sweep();
    while (!stopped) {
      const rows = await claim();
      for (const [index, row] of rows.entries()) {
        if (stopped) {
          // Handed back at once rather than left to their lease.
          await db
            .update(mailOutbox)
            .set({ attempts: sql`${mailOutbox.attempts} - 1`, nextAttemptAt: sql`now()` })
            .where(
              inArray(
                mailOutbox.id,
                rows.slice(index).map((rest) => rest.id),
              ),
            );
          return;
        }
        await deliver(row);
      }
      if (rows.length < BATCH) return;
    }
  }

  /** One delivery pass after whatever pass is running; wakes that arrive meanwhile share it. */
  function pass(): Promise<void> {
    if (queued) return queued;
    const next = chain.then(async () => {
      queued = null;
      if (stopped) return;
      await deliverDue().catch((error: unknown) => log.warn({ reason: mailFailureForLog(error).reason }, 'e-postkön kunde inte läsas'));
    });
    queued = next;
    chain = next;
    return next;
  }

  let timer: NodeJS.Timeout | undefined;
  return {
    pass,
    forgetFiles,
    start() {
      timer = setInterval(() => void pass(), POLL_MS);
      timer.unref();
      void pass();
    },
    /** Stops after the mail being sent, waiting at most `STOP_WAIT_MS`: a mail left unmarked is sent again after its lease. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([chain, new Promise<void>((resolve) => (waited = setTimeout(resolve, STOP_WAIT_MS)))]);
      clearTimeout(waited);
    },
  };
}

/**
 * The mail sender runs in every server process from `ready` until `close` (before the database
 * closes). Mail is queued by the modules with `enqueueMails` in their own transactions.
 */
export const mailOutboxPlugin = fp(
  async (app: FastifyInstance) => {
    const sender = createMailSender({
      db: app.db,
      mailer: app.mailer,
      log: app.log,
      retryBaseMs: app.config.mailRetryMs,
      dataDir: app.config.dataDir,
    });
    const local = !app.config.smtpUrl;
    app.decorate('mailOutbox', {
      deliverSoon: () => {
        const passed = sender.pass();
        return local ? passed : Promise.resolve();
      },
      forgetFiles: async (olderThan) => {
        // A mail of the erased person this process is writing right now is written first, so its
        // file is there to be deleted; another process's goes when its row is found gone.
        if (local) await sender.pass();
        return sender.forgetFiles(olderThan);
      },
    } satisfies MailOutbox);
    app.addHook('onReady', async () => sender.start());
    app.addHook('onClose', async () => sender.stop());
  },
  { name: 'mail-outbox', dependencies: ['core'] },
);
