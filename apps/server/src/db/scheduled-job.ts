import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './client.js';

/**
 * A job the server runs on a schedule (retention, sale mails, weekly summaries). Every server
 * process ticks, and the first to insert a (job, period) row in `job_runs` runs that period: with
 * several processes or several machines on one PostgreSQL, a period still runs once.
 */
export interface ScheduledJob {
  /** Stable name, the key in `job_runs` and in the log. */
  name: string;
  /**
   * The period `now` falls in ('2026-11-26' daily, '2026-11-26T09' hourly), or null when the job
   * must not run now (a mail that waits for the morning). A period runs once.
   */
  periodOf(now: Date): string | null;
  /** Does the work; what it returns is stored and logged as the run's summary (counts, never personal data). */
  run(context: { db: Db; now: Date; log: FastifyBaseLogger }): Promise<Record<string, unknown>>;
}
