import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The boundary rule of eslint.config.js, run through ESLint's Node API on small sources linted as
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

  it("refuses a server plugin importing a module's file", async () => {
    expect(
      await boundaryErrors('apps/server/src/plugins/core.ts', "import { signIn as imported } from '../modules/auth/sign-in.js';"),
    ).toEqual([expect.stringContaining('Server plugins import no module: move what is shared to lib/ or db/.')]);
    expect(
      await boundaryErrors('apps/server/src/plugins/core.ts', "import { createAccessTokens as imported } from '../lib/access-token.js';"),
    ).toEqual([]);
  });
});
