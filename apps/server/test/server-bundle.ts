/**
 * The server as `npm start` runs it (apps/server/build.mjs's esbuild bundle), built once per run
 * for the tests that start it as a process (spawned-server.ts, decision 058), with the operator's
 * commands beside it (operator-commands.ts, decision 079). Loading the bundle with plain node takes
 * a few CPU seconds less per start than transforming every source file through tsx, and about
 * fifteen files start the server, several times each.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

declare module 'vitest' {
  export interface ProvidedContext {
    serverBundle: string | null;
  }
}

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Builds the bundle beside apps/server/dist, where the bundle finds the server's packages and
 * migrations as dist/main.js does, under a name of its own so that `npm run build` (run beside the
 * API tests by `npm test`) and other runs never meet it. TEST_SERVER_BUNDLE=off: none (the spawned
 * servers then run the sources through tsx, as before).
 */
export async function buildServerBundle(): Promise<{ entry: string | null; remove(): Promise<void> }> {
  if (process.env.TEST_SERVER_BUNDLE === 'off') return { entry: null, remove: async () => {} };
  const outdir = path.join(serverDir, `dist.test-${crypto.randomBytes(4).toString('hex')}`);
  const remove = async () => fs.rmSync(outdir, { recursive: true, force: true });
  const child = spawn(process.execPath, ['build.mjs', '--outdir', outdir, '--operator-commands'], {
    cwd: serverDir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) {
    await remove();
    throw new Error(`serverns bygge för testerna misslyckades (kod ${code})`);
  }
  // startup-failures.api.test.ts starts it as nobody.
  fs.chmodSync(outdir, 0o755);
  return { entry: path.join(outdir, 'main.js'), remove };
}
