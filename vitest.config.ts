import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** The API test files that mock a module (vi.mock), each in a module graph of its own. */
const isolatedApiTests = ['apps/server/test/abuse-limits.api.test.ts'];

/**
 * An API test project: real servers over HTTP on a database copied from the run's templates
 * (decision 055); `npx vitest run --project 'api*'` runs both of them.
 */
const api = (test: NonNullable<TestProjectInlineConfiguration['test']>): TestProjectInlineConfiguration => ({
  test: {
    include: ['apps/server/src/**/*.api.test.ts', 'apps/server/test/**/*.api.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The migrated and the seeded database and the server's bundle, built once per run (global-setup.ts).
    globalSetup: ['apps/server/test/global-setup.ts'],
    // Each file starts its own server and database; two cores run two at a time.
    maxWorkers: 2,
    ...test,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        // The web's `@/` import alias (apps/web/vite.config.ts), so web modules can be tested as they are written.
        resolve: { alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) } },
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/web/src/**/*.test.{ts,tsx}'],
          exclude: ['**/*.api.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      api({
        name: 'api',
        exclude: [...isolatedApiTests, '**/node_modules/**'],
        // One module graph per worker, not per file (decision 058): the server's modules, and PGlite's
        // compiled WebAssembly, are loaded twice per run instead of once for each of 70 files.
        // Each file still starts servers and databases of its own; what the files share is code.
        isolate: false,
      }),
      // Files that replace a module with vi.mock get a module graph of their own: in a shared one
      // the server has imported the real module already.
      api({ name: 'api-isolated', include: isolatedApiTests }),
    ],
  },
});
