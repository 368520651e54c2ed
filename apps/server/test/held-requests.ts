import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { sqlRows } from './admin-fixtures.js';
import { eventually } from './test-server.js';

/**
 * PostgreSQL only: sends `count` requests while a transaction holds `table` locked, and lets them
 * go together once every one waits for the lock, so that they read the same rows in the same
 * moment, as simultaneous requests may. (PGlite runs one statement at a time.)
 */
export function sentWhileTableLocked(db: Db, table: string, count: number, send: () => Promise<Response>): Promise<Promise<Response>[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`lock table ${table} in access exclusive mode`));
    const pending = Array.from({ length: count }, send);
    await eventually(async () => {
      // A transaction keeps its first look at pg_stat_activity unless told to forget it.
      await tx.execute(sql`select pg_stat_clear_snapshot()`);
      const [row] = await sqlRows<{ waiting: number }>(
        tx,
        sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      return row!.waiting >= count;
    }, 30_000);
    return pending;
  });
}
