/**
 * vitest's globalSetup of the API tests: the migrated and the seeded test database, built once
 * before the first test file and removed after the last (test-databases.ts, decision 055).
 */
import type { TestProject } from 'vitest/node';
import { buildTestDatabases } from './test-databases.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = (process.env.TEST_DB ?? 'pglite') as 'pglite' | 'postgres';
  // TEST_DB_TEMPLATES=off: every server migrates and seeds its own, as before (to compare the two).
  if (process.env.TEST_DB_TEMPLATES === 'off') {
    project.provide('testDatabases', null);
    return async () => {};
  }
  const started = Date.now();
  const { databases, drop } = await buildTestDatabases(kind, {
    adminUrl: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    // DEMO_TEST_PASSWORD (test-server.ts), not imported: that module reads vitest's inject.
    password: 'demo1234',
  });
  console.log(`testdatabaserna (${kind}) byggda på ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('testDatabases', databases);
  return drop;
}
