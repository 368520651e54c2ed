/**
 * The operator's commands (`npm run backup`, `restore`, `remove-demo-data`, `import-products`,
 * `replay-webhooks`) as the API tests run them. From the run's bundle (server-bundle.ts builds each
 * one beside the server, from the file its npm script names), a command costs half a CPU second;
 * through npm and tsx over the sources it cost two, and a run has about thirty (decision 079).
 * `throughNpm` runs one exactly as an operator types it, so that each script's wiring is run too;
 * without the run's bundle (a file run on its own, TEST_SERVER_BUNDLE=off) every one goes through npm.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, runBundle } from './spawned-server.js';

export type OperatorCommand = 'backup' | 'restore' | 'remove-demo-data' | 'import-products' | 'replay-webhooks';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came, interleaved. */
  output: string;
}

function commandLine(script: OperatorCommand, args: string[], throughNpm: boolean): [string, string[]] {
  const bundle = runBundle();
  if (throughNpm || !bundle) return ['npm', ['run', '--silent', script, '--', ...args]];
  const entry = path.join(path.dirname(bundle), `ops-${script}.js`);
  if (!fs.existsSync(entry)) throw new Error(`${entry} saknas: apps/server/build.mjs byggde inte ${script}`);
  return [process.execPath, [entry, ...args]];
}

/** Runs `npm run <script> -- <args>` from the repository root with `env` over the test's own, to its end. */
export function spawnOperatorCommand(
  script: OperatorCommand,
  args: string[],
  options: { env?: Record<string, string | undefined>; throughNpm?: boolean } = {},
): Promise<CommandResult> {
  const [command, commandArgs] = commandLine(script, args, options.throughNpm ?? false);
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, {
      cwd: repoRoot,
      env: { ...process.env, ...options.env, INIT_CWD: repoRoot },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const result: CommandResult = { code: null, stdout: '', stderr: '', output: '' };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => ((result.stdout += chunk), (result.output += chunk)));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => ((result.stderr += chunk), (result.output += chunk)));
    child.once('error', reject);
    child.once('close', (code) => resolve({ ...result, code }));
  });
}
