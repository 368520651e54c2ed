import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { jobRuns } from '../db/schema.js';
import type { ScheduledJob } from '../db/scheduled-job.js';
import { jobFailures } from '../lib/metrics.js';

export type JobOutcome =
  | { kind: 'ran'; period: string; summary: Record<string, unknown> }
  | { kind: 'failed'; period: string; error: string }
  | { kind: 'not_due' }
  | { kind: 'already_claimed'; period: string };

declare module 'fastify' {
  interface FastifyInstance {
    scheduledJobs: ScheduledJobs;
  }
}

export interface ScheduledJobs {
  /** Adds a job; call it while the app is being built (a module's routes plugin). */
  add(job: ScheduledJob): void;
  /** Runs every job whose period at `now` has not run yet; the timer calls it, and tests with a chosen clock. */
  runDue(now?: Date): Promise<Map<string, JobOutcome>>;
  /** Runs one job for its period at `now`, unless that period already ran. */
  runJob(name: string, now?: Date): Promise<JobOutcome>;
}

/** How often each process looks for due jobs. Hourly is the finest period a job uses. */
const TICK_MS = 60_000;

async function runJob(db: Db, log: FastifyBaseLogger, job: ScheduledJob, now: Date): Promise<JobOutcome> {
  const period = job.periodOf(now);
  if (period === null) return { kind: 'not_due' };
  const claimed = await db.insert(jobRuns).values({ job: job.name, period }).onConflictDoNothing().returning({ job: jobRuns.job });
  if (claimed.length === 0) return { kind: 'already_claimed', period };
  const whereThisRun = and(eq(jobRuns.job, job.name), eq(jobRuns.period, period));
  try {
    const summary = await job.run({ db, now, log });
    await db
      .update(jobRuns)
      .set({ finishedAt: sql`now()`, summary })
      .where(whereThisRun);
    log.info({ job: job.name, period, ...summary }, 'schemalagt jobb klart');
    return { kind: 'ran', period, summary };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The period stays claimed: the next period runs the job again, and the operator sees the failure.
    await db
      .update(jobRuns)
      .set({ finishedAt: sql`now()`, error: message.slice(0, 500) })
      .where(whereThisRun)
      .catch(() => undefined);
    jobFailures.inc({ job: job.name });
    log.error({ job: job.name, period, err: error }, 'schemalagt jobb misslyckades');
    return { kind: 'failed', period, error: message };
  }
}

/**
 * Runs the scheduled jobs from `ready` (a first pass at start) until `close`. Jobs are added by
 * the modules that own them, with `app.scheduledJobs.add`.
 */
export const scheduledJobsPlugin = fp(
  async (app: FastifyInstance) => {
    const jobs = new Map<string, ScheduledJob>();
    let chain: Promise<unknown> = Promise.resolve();
    let stopped = false;

    const scheduled: ScheduledJobs = {
      add(job) {
        if (jobs.has(job.name)) throw new Error(`scheduled job ${job.name} added twice`);
        jobs.set(job.name, job);
      },
      runJob(name, now = new Date()) {
        const job = jobs.get(name);
        if (!job) throw new Error(`no scheduled job ${name}`);
        const next = chain.then(() => runJob(app.db, app.log, job, now));
        chain = next.catch(() => undefined);
        return next;
      },
      async runDue(now = new Date()) {
        const outcomes = new Map<string, JobOutcome>();
        for (const name of jobs.keys()) {
          if (stopped) break;
          outcomes.set(name, await scheduled.runJob(name, now));
        }
        return outcomes;
      },
    };
    app.decorate('scheduledJobs', scheduled);

    let timer: NodeJS.Timeout | undefined;
    const tick = () => void scheduled.runDue().catch((error: unknown) => app.log.warn({ err: error }, 'schemalagda jobb kunde inte köras'));
    app.addHook('onReady', async () => {
      if (!app.config.scheduledJobs) return;
      timer = setInterval(tick, TICK_MS);
      timer.unref();
      tick();
    });
    app.addHook('onClose', async () => {
      stopped = true;
      clearInterval(timer);
      await chain;
    });
  },
  { name: 'scheduled-jobs', dependencies: ['core'] },
);
