// Bundles the server and the contract into dist/main.js (and the backup's worker thread beside it); npm packages stay external.
// `--outdir DIR` builds elsewhere (scripts/build.mjs builds beside dist and then moves it into place).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@saljportalen/'));
const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });

await build({
  // The backup's worker thread (db/pglite-dump.ts) is a file of its own beside main.js.
  // and the configuration's check, which scripts/start.mjs runs before it loads main.js.
  entryPoints: { main: 'src/main.ts', 'pglite-dump-worker': 'src/db/pglite-dump-worker.ts', 'check-config': 'src/check-config.ts' },
  outdir: values.outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
