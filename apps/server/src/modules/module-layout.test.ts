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

/** The route plugins a file exports, each with its own text (to its closing brace at the line's start). */
function routePlugins(file: { name: string; text: string }) {
  return [...file.text.matchAll(/^export async function (\w+)\(/gm)].map((match) => {
    const end = file.text.indexOf('\n}\n', match.index);
    return { file: file.name, name: match[1]!, text: file.text.slice(match.index, end === -1 ? undefined : end) };
  });
}

const declaresRoute = /\.(get|post|put|patch|delete)\(\s*'\//;
const declaresAdminRoute = /\.(get|post|put|patch|delete)\(\s*'\/api\/admin\//;
const declaresOtherRoute = /\.(get|post|put|patch|delete)\(\s*'\/(?!api\/admin\/)/;

describe('one admin surface', () => {
  const adminPlugin = files.find((file) => file.name === join('admin', 'routes.ts'))!;
  /** The route plugins adminRoutes registers, by file and name, read from its imports. */
  const underAdmin = [...adminPlugin.text.matchAll(/import \{ (\w+) \} from '(\.[^']+)\.js'/g)].map(([, name, specifier]) => ({
    name: name!,
    file: relative(modulesDir, resolve(modulesDir, 'admin', `${specifier}.ts`)),
  }));
  const isUnderAdmin = (plugin: { file: string; name: string }) =>
    underAdmin.some((registered) => registered.file === plugin.file && registered.name === plugin.name);
  const plugins = files.flatMap(routePlugins);

  it('finds every route plugin it registers', () => {
    expect(underAdmin.length).toBeGreaterThan(0);
    expect(underAdmin.filter((registered) => !plugins.some((plugin) => isUnderAdmin(plugin) && plugin.name === registered.name))).toEqual(
      [],
    );
  });

  it('registers every /api/admin route under the admin plugin', () => {
    const declaring = plugins.filter((plugin) => declaresAdminRoute.test(plugin.text));
    expect(declaring.length).toBeGreaterThan(0);
    expect(declaring.filter((plugin) => !isUnderAdmin(plugin)).map((plugin) => `${plugin.file}: ${plugin.name}`)).toEqual([]);
  });

  it('guards it once: no other module checks for a superadmin', () => {
    const guarding = files.filter((file) => file.text.includes('requireSuperadmin')).map((file) => file.name);
    expect(guarding).toEqual([join('admin', 'routes.ts')]);
  });

  it('declares no other route under the admin plugin', () => {
    const others = plugins.filter((plugin) => isUnderAdmin(plugin) && declaresOtherRoute.test(plugin.text));
    expect(others.map((plugin) => `${plugin.file}: ${plugin.name}`)).toEqual([]);
  });
});

describe('one way for routes (issue 29)', () => {
  it("declares every route in a module's routes.ts", () => {
    const elsewhere = files.filter((file) => declaresRoute.test(file.text) && !file.name.endsWith(`${sep}routes.ts`));
    expect(elsewhere.map((file) => file.name)).toEqual([]);
  });

  it("signs in by a hook of the route plugin (or of a scope within it), never in one route's options", () => {
    const perRoute = files.filter((file) => /\bonRequest:\s*app\.authenticate/.test(file.text)).map((file) => file.name);
    expect(perRoute).toEqual([]);
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
