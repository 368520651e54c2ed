/**
 * The scheduler every periodic job uses (retention, sale mails, weekly summaries): a period runs
 * once, however many times or processes ask; a failure is recorded and does not stop the next period.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../test/admin-fixtures.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

const hourOf = (now: Date) => now.toISOString().slice(0, 13);

describe('scheduled jobs', () => {
  let server: TestServer;
  const runs: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    server.app.scheduledJobs.add({
      name: 'test-hourly',
      periodOf: (now) => (now.getUTCHours() === 3 ? null : hourOf(now)),
      run: async ({ now }) => {
        runs.push(hourOf(now));
        return { counted: runs.length };
      },
    });
    server.app.scheduledJobs.add({
      name: 'test-failing',
      periodOf: hourOf,
      run: async () => {
        throw new Error('trasig');
      },
    });
  });
  afterAll(() => server.close());

  it('runs a period once, even when asked at once from two places, and stores its summary', async () => {
    const now = new Date('2026-11-26T09:15:00Z');
    const outcomes = await Promise.all([
      server.app.scheduledJobs.runJob('test-hourly', now),
      server.app.scheduledJobs.runJob('test-hourly', new Date('2026-11-26T09:59:00Z')),
    ]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['already_claimed', 'ran']);
    expect(runs).toEqual(['2026-11-26T09']);
    const [row] = await sqlRows<{ summary: unknown; finished_at: unknown }>(
      server.app.db,
      sql`select summary, finished_at from job_runs where job = 'test-hourly'`,
    );
    expect(row?.summary).toEqual({ counted: 1 });
    expect(row?.finished_at).not.toBeNull();
  });

  it('runs again in the next period, and not at all when the job says it is not due', async () => {
    expect((await server.app.scheduledJobs.runJob('test-hourly', new Date('2026-11-26T10:00:00Z'))).kind).toBe('ran');
    expect((await server.app.scheduledJobs.runJob('test-hourly', new Date('2026-11-26T03:30:00Z'))).kind).toBe('not_due');
    expect(runs).toEqual(['2026-11-26T09', '2026-11-26T10']);
  });

  it('records a failed run and lets the other jobs run', async () => {
    const outcomes = await server.app.scheduledJobs.runDue(new Date('2026-11-26T11:00:00Z'));
    expect(outcomes.get('test-failing')).toEqual({ kind: 'failed', period: '2026-11-26T11', error: 'trasig' });
    expect(outcomes.get('test-hourly')?.kind).toBe('ran');
    const [row] = await sqlRows<{ error: string }>(server.app.db, sql`select error from job_runs where job = 'test-failing'`);
    expect(row?.error).toBe('trasig');
  });

  it('tells the metrics when each job last succeeded, by any process, and counts its failures (issue 34)', async () => {
    const response = await server.request('GET', '/metrics');
    expect(response.status).toBe(200);
    const text = await response.text();
    const [row] = await sqlRows<{ seconds: number }>(
      server.app.db,
      sql`select extract(epoch from max(finished_at))::float8 as seconds from job_runs where job = 'test-hourly' and error is null`,
    );
    const shown = /^saljportalen_job_last_success_timestamp_seconds\{job="test-hourly"\} (\S+)$/m.exec(text)?.[1];
    expect(Number(shown)).toBeCloseTo(Number(row!.seconds), 3);
    // A job that never succeeded has no time to show, so an alert on `absent` fires for it.
    expect(text).not.toContain('saljportalen_job_last_success_timestamp_seconds{job="test-failing"}');
    // Counted in the process where it failed (the registry is the process's: other files may add to it).
    expect(Number(/^saljportalen_job_failures_total\{job="test-failing"\} (\d+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
  });
});
