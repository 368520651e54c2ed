/**
 * Statements on the tests' PostgreSQL as its administrator (create and drop a database), one
 * connection each, for the API tests' databases (test-databases.ts, test-server.ts) and the
 * browser tests' portals (e2e/support/postgres-database.ts). Imports nothing of the server.
 */
import pg from 'pg';

export async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** The address of database `name` on the server `adminUrl` points to. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
