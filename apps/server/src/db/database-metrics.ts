import { sql } from 'drizzle-orm';
import { Gauge } from 'prom-client';
import type { Database } from './client.js';
import { metricsRegistry } from '../lib/metrics.js';

/**
 * Read when scraped, from the database the server uses. Several servers in one process (the
 * tests) each set it; the last one opened is read, and closing it clears it.
 */
let scrapeSource: Database | undefined;

/** The database the scrape-time gauges read; returns the function that lets go of it again. */
export function readMetricsFrom(database: Database): () => void {
  scrapeSource = database;
  return () => {
    if (scrapeSource === database) scrapeSource = undefined;
  };
}

/**
 * Rows of a query over the scraped database, or none when no server is open or the database does
 * not answer: that must not take the other metrics with it, and the gauge keeps its last values.
 */
async function scrapedRows<T>(statement: ReturnType<typeof sql>): Promise<T[] | undefined> {
  if (!scrapeSource) return undefined;
  try {
    return ((await scrapeSource.db.execute(statement)) as unknown as { rows: T[] }).rows;
  } catch {
    return undefined;
  }
}

new Gauge({
  name: 'saljportalen_webhook_events_failed',
  help: 'Stored webhook events whose processing failed and that wait for a replay',
  registers: [metricsRegistry],
  // Every process sees the same table: across cluster workers the value is taken once, not added up.
  aggregator: 'max',
  async collect() {
    // The partial index on unprocessed events keeps this to the few rows that wait.
    const rows = await scrapedRows<{ failed: number }>(
      sql`select count(*)::int as failed from webhook_events where processed_at is null and last_error is not null`,
    );
    if (rows) this.set(Number(rows[0]?.failed ?? 0));
  },
});

/**
 * When each scheduled job last finished without error, whichever process ran it (the job_runs
 * table is shared), so an alert can say a job has not run: retention not for 36 hours, say.
 */
new Gauge({
  name: 'saljportalen_job_last_success_timestamp_seconds',
  help: 'When each scheduled job last finished without an error (Unix seconds), by any process',
  labelNames: ['job'] as const,
  registers: [metricsRegistry],
  aggregator: 'max',
  async collect() {
    const rows = await scrapedRows<{ job: string; seconds: number }>(
      sql`select job, extract(epoch from max(finished_at))::float8 as seconds from job_runs
          where finished_at is not null and error is null group by job`,
    );
    for (const row of rows ?? []) this.set({ job: row.job }, Number(row.seconds));
  },
});

new Gauge({
  name: 'saljportalen_db_pool_connections',
  help: 'PostgreSQL connections of this process, by state (in_use, idle); absent on the embedded database',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    const pool = scrapeSource?.pool;
    if (!pool) return;
    this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
    this.set({ state: 'idle' }, pool.idleCount);
  },
});

new Gauge({
  name: 'saljportalen_db_pool_waiting',
  help: 'Queries of this process waiting for a free PostgreSQL connection; absent on the embedded database',
  registers: [metricsRegistry],
  collect() {
    this.reset();
    const pool = scrapeSource?.pool;
    if (pool) this.set(pool.waitingCount);
  },
});

new Gauge({
  name: 'saljportalen_database_info',
  help: 'Which database this process uses (kind: postgres, or pglite for the embedded one)',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
  aggregator: 'max',
  collect() {
    this.reset();
    if (scrapeSource) this.set({ kind: scrapeSource.kind }, 1);
  },
});
