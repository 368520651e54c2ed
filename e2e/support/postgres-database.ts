import { adminQuery, databaseUrl } from '../../apps/server/test/postgres-admin';

/**
 * The PostgreSQL the browser tests' portals keep their data in (decision 077): the machine's, or the
 * one `npm test` started (scripts/test-services.mjs passes its address as TEST_POSTGRES_URL).
 */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * An empty database named `name`, made anew (one a killed run left behind is dropped first), and
 * its address; `drop` removes it, also while a portal still holds connections to it.
 */
export async function createPostgresDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`databasnamnet ${name} får bara ha a–z, 0–9 och _`);
  const drop = () => adminQuery(POSTGRES_ADMIN_URL, `drop database if exists ${name} with (force)`);
  await drop();
  await adminQuery(POSTGRES_ADMIN_URL, `create database ${name}`);
  return { url: databaseUrl(POSTGRES_ADMIN_URL, name), drop };
}
