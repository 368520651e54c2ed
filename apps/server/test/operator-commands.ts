/**
 * The operator's commands (`npm run backup`, `restore`, `remove-demo-data`, `import-products`,
 * `replay-webhooks`) as the API tests run them. From the run's bundle (server-bundle.ts builds each
 * one beside the server, from the file its npm script names), a command costs half a CPU second;
 * through npm and tsx over the sources it cost two, and a run has about thirty (decision 079).
 * `throughNpm` runs one exactly as an operator types it, so that each script's wiring is run too;
 * without the run's bundle (a file run on its own, TEST_SERVER_BUNDLE=off) every one goes through npm.
 */
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, runBundle, runToEnd, type EndedProcess } from './spawned-server.js';

export type OperatorCommand = 'backup' | 'restore' | 'remove-demo-data' | 'import-products' | 'replay-webhooks';

function commandLine(script: OperatorCommand, args: string[], throughNpm: boolean): [string, string[]] {
  const bundle = runBundle();
  if (throughNpm || !bundle) return ['npm', ['run', '--silent', script, '--', ...args]];
  const entry = path.join(path.dirname(bundle), `ops-${script}.js`);
  if (!fs.existsSync(entry)) throw new Error(`${entry} saknas: apps/server/build.mjs byggde inte ${script}`);
  return [process.execPath, [entry, ...args]];
}

/**
 * Runs the operator's `script` with `args` to its end, from the run's bundle or through `npm run`
 * (see above), from the repository root with `env` over the test's own.
 */
export function spawnOperatorCommand(
  script: OperatorCommand,
  args: string[],
  options: { env?: Record<string, string | undefined>; throughNpm?: boolean } = {},
): Promise<EndedProcess> {
  const [command, commandArgs] = commandLine(script, args, options.throughNpm ?? false);
  return runToEnd(command, commandArgs, { env: { ...process.env, ...options.env, INIT_CWD: repoRoot } });
}
