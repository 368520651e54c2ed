import pg from 'pg';

/**
 * The PostgreSQL the browser tests' portals keep their data in (decision 077): the machine's, or the
 * one `npm test` started (scripts/test-services.mjs passes its address as TEST_POSTGRES_URL).
 */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function adminQuery(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * An empty database named `name`, made anew (one a killed run left behind is dropped first), and
 * its address; `drop` removes it, also while a portal still holds connections to it.
 */
export async function createPostgresDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`databasnamnet ${name} får bara ha a–z, 0–9 och _`);
  await adminQuery(`drop database if exists ${name} with (force)`);
  await adminQuery(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}
