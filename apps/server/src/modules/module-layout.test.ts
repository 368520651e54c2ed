import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Where things live (issue 16): one admin surface with one guard, and one read model of the
 * figures. Read from the sources, so that a route or a query put in the wrong place fails here.
 */
const modulesDir = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = sourceFiles(modulesDir).map((path) => ({
  path,
  name: relative(modulesDir, path),
  text: readFileSync(path, 'utf8'),
}));

/** The module files a file imports, and the ones they import, to the end. */
function importedFrom(start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const [, specifier] of readFileSync(path, 'utf8').matchAll(/from '(\.[^']+)\.js'/g)) {
      const target = resolve(dirname(path), `${specifier}.ts`);
      if (target.startsWith(modulesDir)) visit(target);
    }
  };
  visit(start);
  return seen;
}

describe('one admin surface', () => {
  const adminPlugin = join(modulesDir, 'admin/routes.ts');

  it('registers every /api/admin route under the admin plugin', () => {
    const underAdmin = importedFrom(adminPlugin);
    const declaring = files.filter((file) => /\.(get|post|put|patch|delete)\(\s*'\/api\/admin\//.test(file.text));
    expect(declaring.length).toBeGreaterThan(0);
    expect(declaring.filter((file) => !underAdmin.has(file.path)).map((file) => file.name)).toEqual([]);
  });

  it('guards it once: no other module checks for a superadmin', () => {
    const guarding = files.filter((file) => file.text.includes('requireSuperadmin')).map((file) => file.name);
    expect(guarding).toEqual([join('admin', 'routes.ts')]);
  });

  it('declares no other route under the admin plugin', () => {
    const underAdmin = importedFrom(adminPlugin);
    const others = files.filter(
      (file) => underAdmin.has(file.path) && /\.(get|post|put|patch|delete)\(\s*'\/(?!api\/admin\/)/.test(file.text),
    );
    expect(others.map((file) => file.name)).toEqual([]);
  });
});

describe('one read model of the figures', () => {
  it('reads the rollup tables and sums the orders only in modules/figures', () => {
    const figureReads = [
      // the rollup tables, from the schema or in SQL
      /import \{[^}]*\b(membershipFigures|groupFigures)\b[^}]*\} from '[./]*db\/schema\.js'/,
      /\b(from|join)\s+(membership_figures|group_figures)\b/i,
      // the figure sums, and sums over the orders' amounts
      /\b(orderSums|rollupFigures|membershipRollupSums|groupRollupSums)\(/,
      /sum\(\$\{orders\./,
    ];
    const outside = files
      .filter((file) => !file.name.startsWith(`figures${sep}`) && figureReads.some((read) => read.test(file.text)))
      .map((file) => file.name);
    expect(outside).toEqual([]);
  });
});

describe('the modules form a tree', () => {
  it('places every module in serverModuleOrder, which lint keeps (decision 056)', async () => {
    const { serverModuleOrder } = (await import(pathToFileURL(resolve(modulesDir, '../../../../eslint.config.js')).href)) as {
      serverModuleOrder: string[];
    };
    const modules = readdirSync(modulesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(modules.sort()).toEqual([...serverModuleOrder].sort());
  });
});
