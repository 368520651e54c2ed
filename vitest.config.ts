import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** The API test files that mock a module (vi.mock), each in a module graph of its own. */
const isolatedApiTests = ['apps/server/test/abuse-limits.api.test.ts'];

/** The unit test files that replace a module, a global or the clock (see the unit projects below). */
const isolatedUnitTests = [
  'apps/server/src/db/change-feed-heartbeat.test.ts',
  'apps/server/src/lib/access-token.test.ts',
  'apps/server/src/lib/outage-log.test.ts',
  'apps/server/src/modules/live/event-streams.test.ts',
  'apps/web/src/lib/data-version.test.ts',
  'apps/web/src/lib/early-requests.test.ts',
  'apps/web/src/lib/session.test.ts',
  'apps/web/src/lib/toast.test.ts',
];

/** A unit test project: pure functions and modules, no server and no database, on both cores. */
const unit = (test: NonNullable<TestProjectInlineConfiguration['test']>): TestProjectInlineConfiguration => ({
  // The web's `@/` import alias (apps/web/vite.config.ts), so web modules can be tested as they are written.
  resolve: { alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/web/src/**/*.test.{ts,tsx}'],
    environment: 'node',
    maxWorkers: 2,
    ...test,
  },
});

/**
 * API test files for which the database is only the ground they stand on (decision 077): they test
 * the HTTP layer (validation, guards, headers, slow clients), Redis, the mail server, the logs or
 * start-up refusals (whose servers are given their database by the test, the same on both runs),
 * and the embedded database answers them exactly as PostgreSQL does (the same PostgreSQL, built to
 * WebAssembly, behind the same queries). What a hostile text meets in the embedded database's
 * driver, the fuzz test still sends there, at a tenth of its scale. `npm test` runs them once, on
 * PostgreSQL (TEST_DB=postgres); TEST_DB=pglite leaves them out. With TEST_DB unset (a developer's
 * own run) every file runs.
 */
const apiTestsOnPostgresOnly = [
  'apps/server/test/abuse-limits.api.test.ts',
  'apps/server/test/field-refusals.api.test.ts',
  'apps/server/test/headers.api.test.ts',
  'apps/server/test/hostile-input.api.test.ts',
  'apps/server/test/load.api.test.ts',
  'apps/server/test/logging.api.test.ts',
  'apps/server/test/mail-outbox.api.test.ts',
  'apps/server/test/metrics-cluster.api.test.ts',
  'apps/server/test/permissions.api.test.ts',
  'apps/server/test/personal-data-exports.api.test.ts',
  'apps/server/test/redis-faults.api.test.ts',
  'apps/server/test/single-line-names.api.test.ts',
  'apps/server/test/slow-clients.api.test.ts',
  'apps/server/test/startup-failures.api.test.ts',
];
// A file renamed or removed must leave these lists too, or it would run where it should not, unnoticed.
for (const file of [...apiTestsOnPostgresOnly, ...isolatedUnitTests])
  if (!fs.existsSync(fileURLToPath(new URL(file, import.meta.url)))) throw new Error(`vitest.config.ts: ${file} finns inte`);
const onlyOnPostgres = process.env.TEST_DB === 'pglite' ? apiTestsOnPostgresOnly : [];

/** As a file URL, which has no space for NODE_OPTIONS to split at. */
const shortLivedProcess = new URL('./apps/server/test/short-lived-process.mjs', import.meta.url).href;

/**
 * An API test project: real servers over HTTP on a database copied from the run's templates
 * (decision 055); `npx vitest run --project 'api*'` runs both of them.
 */
const api = (test: NonNullable<TestProjectInlineConfiguration['test']>): TestProjectInlineConfiguration => ({
  test: {
    // Inherited by every process a test spawns (servers, operator commands): see the module.
    env: { NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${shortLivedProcess}`].filter(Boolean).join(' ') },
    include: ['apps/server/src/**/*.api.test.ts', 'apps/server/test/**/*.api.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The migrated and the seeded database and the server's bundle, built once per run (global-setup.ts).
    globalSetup: ['apps/server/test/global-setup.ts'],
    // Each file starts its own server and database; two cores run two at a time (three on PostgreSQL
    // gained nothing in a whole run, decision 077).
    maxWorkers: 2,
    ...test,
  },
});

export default defineConfig({
  test: {
    projects: [
      unit({
        name: 'unit',
        exclude: [...isolatedUnitTests, '**/*.api.test.ts', '**/node_modules/**'],
        // One module graph per worker, as the API tests' (decision 058): 75 files imported their
        // modules anew each, 16 of the step's 45 s (decision 077).
        isolate: false,
      }),
      // Files that replace a module (vi.mock), a global (window, fetch, localStorage) or the clock
      // get a module graph of their own: in a shared one the next file would meet what they left.
      unit({ name: 'unit-isolated', include: isolatedUnitTests }),
      api({
        name: 'api',
        exclude: [...isolatedApiTests, ...onlyOnPostgres, '**/node_modules/**'],
        // One module graph per worker, not per file (decision 058): the server's modules, and PGlite's
        // compiled WebAssembly, are loaded twice per run instead of once for each of 70 files.
        // Each file still starts servers and databases of its own; what the files share is code.
        isolate: false,
      }),
      // Files that replace a module with vi.mock get a module graph of their own: in a shared one
      // the server has imported the real module already.
      api({ name: 'api-isolated', include: isolatedApiTests, exclude: onlyOnPostgres }),
    ],
  },
});
