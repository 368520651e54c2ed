import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.js';

/**
 * A query every request runs, built once per database and sent as a named prepared statement:
 * no SQL is put together in JavaScript per request, and PostgreSQL parses and plans it once per
 * connection. `build` returns `query.prepare(name)` with `sql.placeholder(…)` for the values.
 */
export function prepared<T>(build: (db: Db) => T): (db: Db) => T {
  const byDatabase = new WeakMap<Db, T>();
  return (db) => {
    let query = byDatabase.get(db);
    if (query === undefined) byDatabase.set(db, (query = build(db)));
    return query;
  };
}

const dialect = new PgDialect();

/**
 * A statement that runs inside a transaction on a hot path (a webhook's ledger writes): written
 * once with `sql.placeholder(…)` for its values, its text put together once per process, and sent
 * as a named prepared statement on whichever connection the transaction holds, so that PostgreSQL
 * too parses and plans it once per connection. Drizzle's query builders put their statement
 * together at every call, some 90 µs of CPU each for the webhook's (decision 046), and their own
 * prepared statements belong to the pool, outside any transaction. One name, one text.
 * Rows come back as the driver reads them, without Drizzle's mapping: cast in the SQL to what both
 * drivers read alike (`::int`, `::text`, json), and convert the rest where it is read.
 */
export function transactionStatement<Row>(name: string, statement: SQL): (tx: Tx, values: Record<string, unknown>) => Promise<Row[]> {
  const query = dialect.sqlToQuery(statement);
  const text = { sql: query.sql, params: query.params };
  return async (tx, values) => {
    // Without fields to map, both drivers answer with their own result, whose `rows` are objects.
    const result = (await tx._.session.prepareQuery(text, undefined, name, false).execute(values)) as { rows: Row[] };
    return result.rows;
  };
}
