// `npm run build`, and what `npm start` runs when a build is missing or older than its sources.
// Each part is built into a new directory beside its dist and then moved into place, so a server
// that is running keeps serving its own files while the next build is made (decision 016).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(repoRoot, ...parts);
const contract = [at('packages/contract/src'), at('packages/contract/package.json'), at('package-lock.json')];

/** The two builds: what each is made from, the file that shows when it was made, and how to make it. */
export const parts = [
  {
    name: 'webbappen',
    dist: at('apps/web/dist'),
    output: 'index.html',
    sources: [
      at('apps/web/src'),
      at('apps/web/public'),
      at('apps/web/index.html'),
      at('apps/web/vite.config.ts'),
      at('apps/web/tsconfig.json'),
      at('apps/web/package.json'),
      ...contract,
    ],
    command: (outDir) => [
      process.execPath,
      [at('node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir'],
      at('apps/web'),
    ],
  },
  {
    name: 'servern',
    dist: at('apps/server/dist'),
    output: 'main.js',
    sources: [at('apps/server/src'), at('apps/server/build.mjs'), at('apps/server/package.json'), ...contract],
    command: (outDir) => [process.execPath, ['build.mjs', '--outdir', outDir], at('apps/server')],
  },
];

/** The newest modification time under `file` (tests excluded: they are not part of a build). */
function newestChange(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(file) ? 0 : stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(file)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestChange(path.join(file, entry)));
  }
  return newest;
}

/** Why a part must be built, or null when its build is there and newer than every source. */
export function whyBuild(part) {
  let built;
  try {
    built = fs.statSync(path.join(part.dist, part.output)).mtimeMs;
  } catch {
    return 'bygget saknas';
  }
  return part.sources.some((source) => newestChange(source) > built) ? 'källkoden har ändrats sedan förra bygget' : null;
}

/** The files a build produced under assets/, kept in the build so that the next one knows them. */
const ASSET_LIST = '.build-assets.json';
const assetsOf = (dir) => (fs.existsSync(path.join(dir, 'assets')) ? fs.readdirSync(path.join(dir, 'assets')) : []);

/**
 * Moves the new build into place. The previous build's own assets are copied along: a server still
 * running with the previous index.html keeps finding the scripts it names, until it is restarted.
 */
function moveIntoPlace(part, newDir) {
  const own = assetsOf(newDir);
  fs.writeFileSync(path.join(newDir, ASSET_LIST), JSON.stringify(own));
  if (fs.existsSync(part.dist)) {
    let previous;
    try {
      previous = JSON.parse(fs.readFileSync(path.join(part.dist, ASSET_LIST), 'utf8'));
    } catch {
      previous = assetsOf(part.dist);
    }
    for (const file of previous) {
      const from = path.join(part.dist, 'assets', file);
      const to = path.join(newDir, 'assets', file);
      if (fs.existsSync(from) && !fs.existsSync(to)) fs.cpSync(from, to);
    }
  }
  const oldDir = `${part.dist}.old-${process.pid}`;
  if (fs.existsSync(part.dist)) fs.renameSync(part.dist, oldDir);
  fs.renameSync(newDir, part.dist);
  fs.rmSync(oldDir, { recursive: true, force: true });
}

let running = null;

/** Stops a build in progress (start.mjs, on SIGTERM while building). */
export function stopBuild(signal) {
  running?.kill(signal);
}

/**
 * Builds one part. Its output is kept and shown only if the build fails (`quiet`), so that a start
 * prints the server's log and not the build tools' progress.
 */
export async function buildPart(part, { quiet }) {
  const newDir = `${part.dist}.new-${process.pid}`;
  fs.rmSync(newDir, { recursive: true, force: true });
  const [command, args, cwd] = part.command(newDir);
  const child = spawn(command, args, { cwd, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  running = child;
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.once('close', (exitCode, signal) => resolve(signal ? 1 : exitCode)));
  running = null;
  if (code !== 0) {
    fs.rmSync(newDir, { recursive: true, force: true });
    if (quiet) process.stderr.write(output);
    throw new Error(`Bygget av ${part.name} misslyckades (se utskriften ovan).`);
  }
  moveIntoPlace(part, newDir);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    for (const part of parts) await buildPart(part, { quiet: false });
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
