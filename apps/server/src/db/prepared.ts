import type { Db } from './client.js';

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
