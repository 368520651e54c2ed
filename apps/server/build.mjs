// Bundles the server and the contract into dist/main.js; npm packages stay external.
// `--outdir DIR` builds elsewhere (scripts/build.mjs builds beside dist and then moves it into place).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@saljportalen/'));
const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });

await build({
  entryPoints: ['src/main.ts'],
  outdir: values.outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
