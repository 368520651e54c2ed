// Bundles the server and the contract into dist/main.js (and the backup's worker thread beside it); npm packages stay external.
// `--outdir DIR` builds elsewhere (scripts/build.mjs builds beside dist and then moves it into place).
// `--operator-commands` adds the operator's commands (`npm run backup` and the others) beside main.js,
// for the API tests, which run them from the run's bundle (apps/server/test/operator-commands.ts).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@saljportalen/'));
const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' }, 'operator-commands': { type: 'boolean' } } });

/**
 * The operator's commands as the root package.json runs them (`npm run backup` and the others run
 * `node --import tsx apps/server/src/…`), each bundled beside main.js as ops-<script>.js: the paths
 * they resolve from there are main.js's.
 */
const rootScripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts;
const operatorCommands = Object.fromEntries(
  Object.entries(rootScripts).flatMap(([script, line]) => {
    const source = /^node --import tsx apps\/server\/(src\/\S+\.ts)$/.exec(line)?.[1];
    return source ? [[`ops-${script}`, source]] : [];
  }),
);

await build({
  // The backup's worker thread (db/pglite-dump.ts) is a file of its own beside main.js.
  // and the configuration's check, which scripts/start.mjs runs before it loads main.js.
  entryPoints: {
    main: 'src/main.ts',
    'pglite-dump-worker': 'src/db/pglite-dump-worker.ts',
    'check-config': 'src/check-config.ts',
    ...(values['operator-commands'] ? operatorCommands : {}),
  },
  outdir: values.outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
