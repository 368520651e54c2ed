import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The boundary rules of eslint.config.js (decision 056), run through ESLint's Node API on small sources linted as
// if they were real files of the tree (the TypeScript resolver resolves `@/` only for files of a
// project), so that a wrong import is shown to fail lint (issue 16, point 4).
// No trailing slash: with one, the TypeScript resolver does not resolve `@/` imports.
const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = imported;\n`, { filePath: `${root}/${filePath}` });
  return result!.messages.filter((message) => message.ruleId === 'import-x/no-restricted-paths').map((message) => message.message);
}

describe('import boundaries (eslint import-x/no-restricted-paths)', { timeout: 60_000 }, () => {
  it("refuses a feature importing another feature's internals, by alias or relative path", async () => {
    expect(
      await boundaryErrors(
        'apps/web/src/features/dashboard/dashboard-page.tsx',
        "import { leaderboardQuery as imported } from '@/features/leaderboard/api/leaderboard';",
      ),
    ).toEqual([expect.stringContaining('A feature imports another feature only through its index.ts.')]);
    expect(
      await boundaryErrors(
        'apps/web/src/features/account/account-forms.ts',
        "import { CatalogCard as imported } from '../catalog/components/catalog-card';",
      ),
    ).toHaveLength(1);
  });

  it("allows a feature's own files and another feature's index.ts", async () => {
    expect(
      await boundaryErrors(
        'apps/web/src/features/dashboard/dashboard-page.tsx',
        "import { LeaderboardCard as imported } from '@/features/leaderboard';",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors('apps/web/src/features/dashboard/dashboard-page.tsx', "import { firstName as imported } from './first-name';"),
    ).toEqual([]);
  });

  it('refuses components/ and lib/ importing any feature, even its index.ts', async () => {
    expect(
      await boundaryErrors('apps/web/src/components/layout/logo.tsx', "import { CatalogCard as imported } from '@/features/catalog';"),
    ).toEqual([expect.stringContaining('components/ and lib/ import no feature: move what is shared into them.')]);
    expect(
      await boundaryErrors(
        'apps/web/src/lib/cn.ts',
        "import { useLeaderboard as imported } from '../features/leaderboard/api/leaderboard';",
      ),
    ).toHaveLength(1);
  });

  it('refuses a server layer importing a later one, and a module importing a later module', async () => {
    expect(await boundaryErrors('apps/server/src/lib/money.ts', "import { openDatabase as imported } from '../db/client.js';")).toEqual([
      expect.stringContaining("The server's layers are lib → db → modules → plugins → app: lib imports no later layer"),
    ]);
    expect(
      await boundaryErrors('apps/server/src/modules/catalog/routes.ts', "import { currentUser as imported } from '../../plugins/auth.js';"),
    ).toEqual([expect.stringContaining('modules imports no later layer')]);
    expect(
      await boundaryErrors(
        'apps/server/src/modules/audit/write-audit.ts',
        "import { recordShopifyOrder as imported } from '../orders/record-shopify-order.js';",
      ),
    ).toEqual([expect.stringContaining('A module imports only modules before it in serverModuleOrder')]);
  });

  it('allows a layer importing an earlier one, and a module an earlier module', async () => {
    expect(
      await boundaryErrors(
        'apps/server/src/plugins/retention.ts',
        "import { retentionJob as imported } from '../modules/privacy/retention.js';",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'apps/server/src/modules/orders/assign-order.ts',
        "import { writeAudit as imported } from '../audit/write-audit.js';",
      ),
    ).toEqual([]);
  });

  it('refuses a web feature importing a later feature, even through its index.ts', async () => {
    expect(
      await boundaryErrors(
        'apps/web/src/features/leaderboard/components/leaderboard-card.tsx',
        "import { loadDashboardPage as imported } from '@/features/dashboard';",
      ),
    ).toEqual([expect.stringContaining('A feature imports only features before it in webFeatureOrder')]);
  });

  it("refuses app/ importing a feature's internals, and allows its index.ts", async () => {
    expect(
      await boundaryErrors('apps/web/src/app/router.tsx', "import { LoginPage as imported } from '@/features/auth/login-page';"),
    ).toEqual([expect.stringContaining('app/ imports a feature only through its index.ts.')]);
    expect(await boundaryErrors('apps/web/src/app/router.tsx', "import { LoginPage as imported } from '@/features/auth';")).toEqual([]);
  });

  it("refuses an admin sub-feature reaching another's internals or a later one, and the shared files reaching any", async () => {
    expect(
      await boundaryErrors(
        'apps/web/src/features/admin/payouts/payouts-page.tsx',
        "import { useGroupOptions as imported } from '../groups/api/list-group-options';",
      ),
    ).toEqual([expect.stringContaining('In the admin area a sub-feature is imported only through its index.ts.')]);
    expect(
      await boundaryErrors(
        'apps/web/src/features/admin/payouts/payouts-page.tsx',
        "import { useGroupOptions as imported } from '../groups';",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors('apps/web/src/features/admin/groups/groups-page.tsx', "import { PayoutsPage as imported } from '../payouts';"),
    ).toEqual([expect.stringContaining('An admin sub-feature imports only sub-features before it in adminSubFeatureOrder')]);
    expect(
      await boundaryErrors('apps/web/src/features/admin/admin-page-helpers.ts', "import { GroupsPage as imported } from './groups';"),
    ).toEqual([expect.stringContaining("The admin's shared files import no sub-feature")]);
  });
});

/** The config's orders, read as the linter reads them (a JavaScript module TypeScript does not type). */
const config = (await import(pathToFileURL(`${root}/eslint.config.js`).href)) as {
  importOrderFixture: string;
  serverLayers: { name: string; paths: string[] }[];
  serverModuleOrder: string[];
  webFeatureOrder: string[];
  adminSubFeatureOrder: string[];
};

const folders = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

describe('the orders cover the trees', () => {
  it("places every file and folder of the server's src in a layer (tests aside)", () => {
    const placed = config.serverLayers.flatMap((layer) => layer.paths);
    const entries = readdirSync(`${root}/apps/server/src`).filter((name) => !/\.test\.ts$/.test(name));
    expect(entries.filter((name) => !placed.includes(name))).toEqual([]);
  });

  it('places every web feature and every admin sub-feature in its order', () => {
    expect(folders(`${root}/apps/web/src/features`)).toEqual([...config.webFeatureOrder].sort());
    expect(folders(`${root}/apps/web/src/features/admin`)).toEqual([...config.adminSubFeatureOrder, 'components'].sort());
  });
});

describe('the import-order fixture (a cycle, a layer and a module imported against the order)', { timeout: 60_000 }, () => {
  it('fails lint with exactly those errors, and none in its other files', async () => {
    // The fixture is in lint's ignores, so that `npm run lint` passes: linted here on purpose.
    const results = await new ESLint({ cwd: root, ignore: false }).lintFiles([config.importOrderFixture]);
    const errors = results.flatMap((result) =>
      result.messages.map(
        (message) => `${path.relative(`${root}/${config.importOrderFixture}`, result.filePath)}:${message.line} ${message.ruleId}`,
      ),
    );
    expect(errors.sort()).toEqual([
      'lib/metrics.ts:1 import-x/no-restricted-paths',
      'modules/audit/write-audit.ts:2 import-x/no-restricted-paths',
      'modules/orders/ledger.ts:1 local/no-import-cycle',
      'modules/orders/lines.ts:1 local/no-import-cycle',
    ]);
    expect(results.filter((result) => result.messages.length === 0)).toHaveLength(5);
  });
});
