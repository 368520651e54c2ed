/**
 * vitest's globalSetup of the API tests: the migrated and the seeded test database (test-databases.ts,
 * decision 055) and the server's bundle for the tests that start it as a process (server-bundle.ts,
 * decision 058), built once before the first test file and removed after the last.
 */
import type { TestProject } from 'vitest/node';
import { buildServerBundle } from './server-bundle.js';
import { buildTestDatabases, type TestDatabases } from './test-databases.js';

interface Built {
  serverBundle: string | null;
  testDatabases: TestDatabases | null;
  remove(): Promise<void>;
}

async function build(): Promise<Built> {
  const bundle = await buildServerBundle();
  const kind = (process.env.TEST_DB ?? 'pglite') as 'pglite' | 'postgres';
  // TEST_DB_TEMPLATES=off: every server migrates and seeds its own, as before (to compare the two).
  if (process.env.TEST_DB_TEMPLATES === 'off') return { serverBundle: bundle.entry, testDatabases: null, remove: bundle.remove };
  const started = Date.now();
  try {
    const { databases, drop } = await buildTestDatabases(kind, {
      adminUrl: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      // DEMO_TEST_PASSWORD (test-server.ts), not imported: that module reads vitest's inject.
      password: 'demo1234',
    });
    console.log(`testdatabaserna (${kind}) byggda på ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return {
      serverBundle: bundle.entry,
      testDatabases: databases,
      async remove() {
        await drop();
        await bundle.remove();
      },
    };
  } catch (error) {
    await bundle.remove();
    throw error;
  }
}

// vitest runs this setup once for each API project (api and api-isolated, vitest.config.ts), in
// one process: the first builds, the others share it, and the last one done removes it.
const shared = globalThis as { apiTestSetup?: { built: Promise<Built>; users: number } };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared.apiTestSetup ??= { built: build(), users: 0 };
  const setupOfRun = shared.apiTestSetup;
  setupOfRun.users++;
  const built = await setupOfRun.built;
  project.provide('serverBundle', built.serverBundle);
  project.provide('testDatabases', built.testDatabases);
  return async () => {
    if (--setupOfRun.users > 0) return;
    shared.apiTestSetup = undefined;
    await built.remove();
  };
}
