import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { noImportCycle } from './eslint/no-import-cycle.js';

const root = import.meta.dirname;
const server = 'apps/server/src';
const web = 'apps/web/src';
/** A small tree shaped like the server's, with a cycle and imports against the order: lint ignores it, its test lints it. */
export const importOrderFixture = 'apps/server/test/fixtures/import-order';
const serverRoots = [server, importOrderFixture];

/**
 * The server's layers, first to last: a file imports from its own layer and the ones before it,
 * never from a later one (decision 056). lib/ knows no database; db/ is the database and the
 * machinery on its tables; modules/ the domains; plugins/ wire them into Fastify; the app layer
 * builds and runs the server (and the operator commands).
 */
export const serverLayers = [
  { name: 'lib', paths: ['lib', 'errors.ts', 'config.ts'] },
  { name: 'db', paths: ['db'] },
  { name: 'modules', paths: ['modules'] },
  { name: 'plugins', paths: ['plugins'] },
  { name: 'app', paths: ['app.ts', 'main.ts', 'cluster.ts', 'demo-on-network.ts', 'startup-failure.ts', 'check-config.ts', 'ops'] },
];

/** The server's modules, first to last: a module imports only modules before it, so they form no cycle. */
export const serverModuleOrder = [
  'audit',
  'memberships',
  'health',
  'live',
  'orders',
  'shopify',
  'catalog',
  'figures',
  'links',
  'notifications',
  'auth',
  'account',
  'groups',
  'group-members',
  'payouts',
  'class-orders',
  'dashboard',
  'campaigns',
  'class-link',
  'privacy',
  'guardian',
  'admin',
  'demo',
];

/** The web's features, first to last: a feature imports only features before it, through their index.ts. */
export const webFeatureOrder = [
  'privacy',
  'public-name',
  'admin-access',
  'catalog',
  'class-goal',
  'class-members',
  'campaign',
  'class-link',
  'leaderboard',
  'live-figures',
  'personal-link',
  'sales-chart',
  'group-results',
  'install-app',
  'group-switcher',
  'account',
  'auth',
  'dashboard',
  'guardian',
  'admin',
];

/**
 * The admin area's sub-features, first to last, as the web's features: each imports the admin's
 * shared files (components/, the helpers and the token hook) and earlier sub-features through their
 * index.ts. The area's shell (admin-routes.tsx, use-live-admin.ts) imports them all, the same way.
 */
export const adminSubFeatureOrder = ['groups', 'sellers', 'orders', 'payouts', 'overview', 'audit', 'webhooks'];
const adminShared = ['components', 'admin-page-helpers.ts', 'use-admin-token.ts'];
const adminShell = ['admin-routes.tsx', 'use-live-admin.ts'];

const later = (order, name) => order.slice(order.indexOf(name) + 1);
const under = (folder) => (name) => `${folder}/${name}`;

/** The server's layer and module order as zones, for a tree laid out as apps/server/src. */
const serverZones = (base) => [
  ...serverLayers.slice(0, -1).map((layer, index) => ({
    target: layer.paths.map(under(base)),
    from: serverLayers.slice(index + 1).flatMap((next) => next.paths.map(under(base))),
    message: `The server's layers are ${serverLayers.map((each) => each.name).join(' → ')}: ${layer.name} imports no later layer (eslint.config.js).`,
  })),
  ...serverModuleOrder.slice(0, -1).map((module) => ({
    target: `${base}/modules/${module}`,
    from: later(serverModuleOrder, module).map(under(`${base}/modules`)),
    message:
      'A module imports only modules before it in serverModuleOrder (eslint.config.js): move what both need into the earlier one, or to lib/ or db/.',
  })),
];

/**
 * Import directions the linter keeps (bulletproof-react's zones, decision 056): the server's
 * layer and module order; on the web, a feature (and an admin sub-feature) reaches another only
 * through its index.ts and only an earlier one, app/ reaches features only through their index.ts,
 * and components/ and lib/ import no feature. With the orders no two folders can import each other;
 * eslint/no-import-cycle.js refuses a cycle between files.
 */
export const boundaryZones = [
  ...serverRoots.flatMap(serverZones),
  ...webFeatureOrder.map((feature) => ({
    target: `${web}/features/${feature}`,
    from: `${web}/features`,
    except: [`./${feature}`, ...webFeatureOrder.filter((other) => other !== feature).map((other) => `./${other}/index.ts`)],
    message: 'A feature imports another feature only through its index.ts.',
  })),
  ...webFeatureOrder.slice(0, -1).map((feature) => ({
    target: `${web}/features/${feature}`,
    from: later(webFeatureOrder, feature).map(under(`${web}/features`)),
    message: 'A feature imports only features before it in webFeatureOrder (eslint.config.js).',
  })),
  {
    target: [`${web}/app`, `${web}/main.ts`],
    from: `${web}/features`,
    except: webFeatureOrder.map((feature) => `./${feature}/index.ts`),
    message: 'app/ imports a feature only through its index.ts.',
  },
  {
    target: [`${web}/components`, `${web}/lib`],
    from: `${web}/features`,
    message: 'components/ and lib/ import no feature: move what is shared into them.',
  },
  ...[...adminSubFeatureOrder, ...adminShell].map((part) => ({
    target: `${web}/features/admin/${part}`,
    from: `${web}/features/admin`,
    except: [
      ...adminShared.map((shared) => `./${shared}`),
      ...(adminShell.includes(part) ? adminShell.map((shell) => `./${shell}`) : []),
      ...adminSubFeatureOrder.map((sub) => (sub === part ? `./${sub}` : `./${sub}/index.ts`)),
    ],
    message: 'In the admin area a sub-feature is imported only through its index.ts.',
  })),
  ...adminSubFeatureOrder.slice(0, -1).map((sub) => ({
    target: `${web}/features/admin/${sub}`,
    from: later(adminSubFeatureOrder, sub).map(under(`${web}/features/admin`)),
    message: 'An admin sub-feature imports only sub-features before it in adminSubFeatureOrder (eslint.config.js).',
  })),
  {
    target: adminShared.map(under(`${web}/features/admin`)),
    from: [...adminSubFeatureOrder, ...adminShell].map(under(`${web}/features/admin`)),
    message: "The admin's shared files import no sub-feature: move what is shared into them.",
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
      `${importOrderFixture}/**`,
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
    files: ['apps/*/src/**/*.{ts,tsx}', `${importOrderFixture}/**/*.ts`],
    plugins: { 'import-x': importX, local: { rules: { 'no-import-cycle': noImportCycle } } },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [`${root}/apps/web/tsconfig.json`, `${root}/apps/server/tsconfig.json`],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
      // import-x/no-cycle's check in about a second instead of 19 (eslint/no-import-cycle.js).
      'local/no-import-cycle': [
        'error',
        { roots: [server, web, importOrderFixture].map((tree) => `${root}/${tree}`), aliases: { '@/': `${root}/${web}/` } },
      ],
    },
  },
  {
    // A test imports what it tests and is imported by nothing: it can close no cycle, and the server's
    // tests build the whole app (the layer order is the code's, not theirs).
    files: ['apps/*/src/**/*.test.{ts,tsx}'],
    rules: { 'local/no-import-cycle': 'off' },
  },
  {
    files: ['apps/server/src/**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
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
