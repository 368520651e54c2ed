import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

const root = import.meta.dirname;
const webFeatures = readdirSync(`${root}/apps/web/src/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Import directions the linter keeps (bulletproof-react's zones): a feature reaches another only
 * through its index.ts; components/ and lib/ import no feature; server plugins import no module.
 */
export const boundaryZones = [
  ...webFeatures.map((feature) => ({
    target: `apps/web/src/features/${feature}`,
    from: 'apps/web/src/features',
    except: [`./${feature}`, ...webFeatures.filter((other) => other !== feature).map((other) => `./${other}/index.ts`)],
    message: 'A feature imports another feature only through its index.ts.',
  })),
  {
    target: ['apps/web/src/components', 'apps/web/src/lib'],
    from: 'apps/web/src/features',
    message: 'components/ and lib/ import no feature: move what is shared into them.',
  },
  {
    target: 'apps/server/src/plugins',
    from: 'apps/server/src/modules',
    message: 'Server plugins import no module: move what is shared to lib/ or db/.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist.new-*/**',
      '**/dist.old-*/**',
      '**/dist.test-*/**',
      '**/node_modules/**',
      '.e2e-data/**',
      'test-results/**',
      'playwright-report/**',
      'bench/RESULTS.md',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/*/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [`${root}/apps/web/tsconfig.json`, `${root}/apps/server/tsconfig.json`],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Every browser test fails on a console warning or error (issue 19): that check lives in the
    // fixtures' `test`, so a spec that takes Playwright's own would quietly skip it.
    files: ['e2e/**/*.ts'],
    ignores: ['e2e/support/fixtures.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: "Import `test` from './support/fixtures': it fails on console noise.",
            },
          ],
        },
      ],
    },
  },
);
