import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
      {
        test: {
          name: 'api',
          include: ['apps/server/src/**/*.api.test.ts', 'apps/server/test/**/*.api.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // The migrated and the seeded database, built once per run and copied per server (decision 055).
          globalSetup: ['apps/server/test/global-setup.ts'],
          // Each file starts its own server and database; two cores run two at a time.
          maxWorkers: 2,
        },
      },
    ],
  },
});
