/**
 * Issue 18, start and stop: `npm start` as an operator (or a container's `CMD npm start`) runs
 * it. The process npm starts is the server itself (no shell between that would die and leave
 * the server running), so the SIGTERM npm forwards makes the server drain and exit, and npm with
 * it. A start with an up-to-date build builds nothing and prints nothing but npm's two-line banner
 * before the server's log. How long a restart takes is `npm run bench -- --only=restart`'s figure
 * (bench/restart.ts), not an assertion here: a timed assertion fails on a busy machine and says
 * nothing about the code.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, repoRoot } from './spawned-server.js';
import { createPostgresDatabase, testDbKind } from './test-server.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-npm-start-'));
let postgres: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
let port: number;

beforeAll(async () => {
  postgres = testDbKind === 'postgres' ? await createPostgresDatabase() : undefined;
  port = await freePort();
  // What `npm start` would otherwise build first: only the parts that are missing or stale.
  const buildStale = `const build = await import('./scripts/build.mjs');
    for (const part of build.parts) if (build.whyBuild(part)) await build.buildPart(part, { quiet: true });`;
  const built = spawnSync(process.execPath, ['--input-type=module', '-e', buildStale], { cwd: repoRoot, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`bygget misslyckades: ${built.stdout}${built.stderr}`);
}, 600_000);

afterAll(async () => {
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const refused = () =>
  new Promise<boolean>((resolve) => {
    const probe = net.connect(port, '127.0.0.1');
    probe.once('connect', () => {
      probe.destroy();
      resolve(false);
    });
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

interface NpmStart {
  npm: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function npmStart(): Promise<NpmStart> {
  const npm = spawn('npm', ['start'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: postgres?.url ?? '',
      SEED_DEMO: '0',
      SHOPIFY_WEBHOOK_SECRET: 'hemlig',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  for (const deadline = Date.now() + 120_000; ;) {
    if (npm.exitCode !== null) throw new Error(`npm start avslutades: ${output}`);
    if (
      await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      npm.kill('SIGTERM');
      await exited;
      throw new Error(`npm start blev aldrig frisk: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { npm, output: () => output, exited };
}

/** The processes started with this test's DATA_DIR (npm, and the server it runs). */
function processesOfThisTest(): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`DATA_DIR=${dataDir}`)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

afterEach(() => {
  // A failed test must not leave its server running.
  for (const pid of processesOfThisTest()) process.kill(pid, 'SIGKILL');
});

describe('npm start', () => {
  it('runs the server as the process npm signals: SIGTERM drains it and nothing is left running', { timeout: 300_000 }, async () => {
    const start = await npmStart();
    const running = processesOfThisTest();
    expect(running.length).toBeGreaterThan(0);

    start.npm.kill('SIGTERM');
    const exited = await start.exited;
    // npm ends with the server's exit code, or by the signal it forwarded.
    expect(exited.code === 0 || exited.signal === 'SIGTERM', JSON.stringify(exited)).toBe(true);
    for (const pid of running) expect(alive(pid)).toBe(false);
    expect(processesOfThisTest()).toEqual([]);
    expect(await refused()).toBe(true);
    expect(start.output()).toContain('SIGTERM: slutför pågående förfrågningar och stänger');
  });

  it('starts again without building, quietly', { timeout: 300_000 }, async () => {
    const start = await npmStart();
    const before = start.output().split('\n{')[0]!;
    start.npm.kill('SIGTERM');
    await start.exited;
    expect(processesOfThisTest()).toEqual([]);

    expect(before).not.toContain('Bygger');
    // npm's banner (`> saljportalen@0.1.0 start`, `> exec node scripts/start.mjs`) and nothing else.
    expect(before.split('\n').filter((line) => line.trim())).toEqual(['> saljportalen@0.1.0 start', '> exec node scripts/start.mjs']);
  });
});
