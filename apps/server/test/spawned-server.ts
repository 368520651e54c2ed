/**
 * The real server as a child process (the run's bundle of it, server-bundle.ts, as `npm start`
 * runs dist/main.js), for tests that kill it, stop it or restart it on the same data: what
 * `npm start` runs, signals and all.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SQL } from 'drizzle-orm';
import { inject } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { DEMO_PASSWORD_FILE } from '../src/db/demo-password.js';
import { TEST_WEBHOOK_SECRET } from './shopify-webhooks.js';
import { DEMO_TEST_PASSWORD, copyTemplateDatabase, createPostgresDatabase, testDbKind } from './test-server.js';
import type { TestTemplate } from './test-databases.js';
import { sqlRows } from './admin-fixtures.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Data for one test file's servers: a data dir each under a temporary folder, and on
 * TEST_DB=postgres a database each; `dispose` removes them all. A server's data starts as the
 * run's migrated template, or as the seeded one: a first start on nothing at all (initdb, every
 * migration) is asked for as `empty`, by the tests that are about it (decision 060).
 */
export function serverDataFolder(prefix: string) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const databases: Awaited<ReturnType<typeof createPostgresDatabase>>[] = [];
  return {
    workDir,
    async fresh(name: string, from: TestTemplate | 'empty' = 'migrated'): Promise<ServerData> {
      const dataDir = path.join(workDir, name);
      fs.mkdirSync(dataDir);
      if (testDbKind !== 'postgres') {
        if (from !== 'empty') copyTemplateDatabase(from, dataDir);
        return { dataDir };
      }
      const postgres = await createPostgresDatabase(from === 'empty' ? undefined : from);
      databases.push(postgres);
      return { dataDir, databaseUrl: postgres.url };
    },
    async dispose() {
      for (const postgres of databases) await postgres.drop();
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/**
 * A port free a moment ago, for a test that must name the port before the server starts: a
 * restart on the same port, a banner or a setting that carries it. Another process may take it
 * in between, so a server that can be started on port 0 is (spawnServer reads the port back).
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Where a spawned server keeps its data: a PGlite data dir, or a PostgreSQL database. */
export interface ServerData {
  dataDir: string;
  databaseUrl?: string;
}

/** Reads the database while no server runs (PGlite allows one process; a dead one's lock is taken over). */
export async function inspectDatabase<T>(data: ServerData, statement: SQL): Promise<T[]> {
  const database = await openDatabase(data.databaseUrl ? { databaseUrl: data.databaseUrl } : { dataDir: data.dataDir });
  try {
    return await sqlRows<T>(database.db, statement);
  } finally {
    await database.close();
  }
}

/** One line of the server's JSON log. */
export type LogEntry = Record<string, unknown> & { msg?: string };

export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  /** Every JSON log line the server has written so far, as written. */
  logLines(): string[];
  /** The same lines, parsed (once, as they arrived). */
  logEntries(): LogEntry[];
  /** Everything the server has written so far to stdout and stderr, log lines or not. */
  output(): string;
  /** Resolves with the first log line, from now on, that `matches` accepts. */
  waitForLog(matches: (entry: LogEntry) => boolean): Promise<LogEntry>;
  /**
   * Resolves with the first log line, written already or still to come, that `matches` accepts: a
   * line the server writes at start may reach the test after /api/health has answered (stdout and
   * the health check's connection are two channels).
   */
  logged(matches: (entry: LogEntry) => boolean): Promise<LogEntry>;
  /** Resolves once the server has written `text` (in a log line or not), now or later: as `logged`, for the demo's banner. */
  printed(text: string): Promise<void>;
  /** Resolves when the process has exited, with how. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The run's bundle of the server (built by the API tests' global setup, decision 058), its
 * operator commands beside it; null without one (a file run on its own, TEST_SERVER_BUNDLE=off, or
 * outside a vitest worker).
 */
export function runBundle(): string | null {
  try {
    return inject('serverBundle');
  } catch {
    return null;
  }
}

/** node's arguments that run the server: the run's bundle, or without one the sources through tsx. */
export function serverEntry(): string[] {
  const bundle = runBundle();
  return bundle ? [bundle] : ['--import', 'tsx', 'apps/server/src/main.ts'];
}

/** The environment and command line of the server `npm start` runs, for `data`. */
export function serverCommand(options: { port: number; data: ServerData; env?: Record<string, string>; umask?: string }) {
  const { port, data } = options;
  const node = [process.execPath, ...serverEntry()];
  // A umask is a property of the process, so a shell sets it just before becoming the server.
  const [command, ...args] = options.umask ? ['/bin/sh', '-c', `umask ${options.umask} && exec "$@"`, 'sh', ...node] : node;
  return {
    command: command!,
    args,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: data.dataDir,
      SEED_DEMO: '1',
      SHOPIFY_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      LOG_LEVEL: 'info',
      RATE_LIMITS: '0',
      WEB_DIST: path.join(data.dataDir, 'no-web'),
      DATABASE_URL: data.databaseUrl ?? '',
      ...options.env,
    },
  };
}

/** How a process that ended by itself ended: its exit code, its output, and how long it ran. */
export interface EndedProcess {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came, interleaved. */
  output: string;
  /** That output's non-empty lines. */
  lines: string[];
  seconds: number;
}

/**
 * Runs a command that is to end by itself (a refused start, an operator's command) from the
 * repository root and resolves once it has, with all its output read. With `timeoutMs` it is
 * killed after that long, so a start that was not refused fails its test rather than hanging it
 * (the time allowed is the caller's: a busy machine can take minutes to start a server).
 */
export function runToEnd(command: string, args: string[], options: SpawnOptions & { timeoutMs?: number }): Promise<EndedProcess> {
  const { timeoutMs, ...spawnOptions } = options;
  const started = Date.now();
  const child = spawn(command, args, { cwd: repoRoot, ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
  const result = { stdout: '', stderr: '', output: '' };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => ((result.stdout += chunk), (result.output += chunk)));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => ((result.stderr += chunk), (result.output += chunk)));
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    // 'close', not 'exit': the output is whole only once both pipes have ended.
    child.once('close', (code) => {
      clearTimeout(timer);
      const lines = result.output.split('\n').filter((line) => line.trim());
      resolve({ code, ...result, lines, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** Starts the server `npm start` runs over `data` (serverCommand) and waits for it to end by itself. */
export function startServerToEnd(
  options: { port: number; data: ServerData; env?: Record<string, string> },
  timeoutMs: number,
): Promise<EndedProcess> {
  const { command, args, env } = serverCommand(options);
  return runToEnd(command, args, { env, timeoutMs });
}

interface LogWaiter {
  matches(entry: LogEntry): boolean;
  resolve(entry: LogEntry): void;
}

/** The address Fastify logs once it listens (a server started on port 0), or a failure if the process ends first. */
async function listeningUrl(child: ChildProcess, waiters: LogWaiter[], output: () => string): Promise<string> {
  const LISTENING = /^Server listening at (http:\/\/127\.0\.0\.1:\d+)$/;
  const entry = await Promise.race([
    new Promise<LogEntry>((resolve) => waiters.push({ matches: (line) => LISTENING.test(String(line.msg)), resolve })),
    new Promise<never>((_resolve, reject) =>
      child.once('exit', () => reject(new Error(`servern avslutades vid start: ${output().slice(-3000)}`))),
    ),
  ]);
  return LISTENING.exec(String(entry.msg))![1]!;
}

/**
 * Starts the server on `port` (0: one the system picks) over `data` (demo data, webhook secret, no rate limits unless
 * `env` says otherwise) and resolves once /api/health answers. Start-up is given a minute: the
 * machine may be busy. The demo accounts get DEMO_TEST_PASSWORD, put in the data dir's
 * demo-password file before the first start, unless `demoPassword` is false (the server then
 * generates one, as on a real first start). `startTimeoutMs` (three minutes) is for a busy machine: a start there has taken over one.
 */
export async function spawnServer(options: {
  port: number;
  data: ServerData;
  env?: Record<string, string>;
  umask?: string;
  demoPassword?: false;
  startTimeoutMs?: number;
}): Promise<SpawnedServer> {
  const { port, data } = options;
  const passwordFile = path.join(data.dataDir, DEMO_PASSWORD_FILE);
  if (options.demoPassword !== false && !fs.existsSync(passwordFile)) {
    fs.mkdirSync(data.dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(passwordFile, `${DEMO_TEST_PASSWORD}\n`, { mode: 0o600 });
  }
  const { command, args, env } = serverCommand(options);
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const waiters: LogWaiter[] = [];
  const textWaiters: { text: string; resolve(): void }[] = [];
  const logLines: string[] = [];
  /** The same lines, parsed once as they arrive. */
  const logEntries: LogEntry[] = [];
  let output = '';
  const outputGrew = () => {
    for (const waiter of textWaiters.filter(({ text }) => output.includes(text))) {
      textWaiters.splice(textWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    outputGrew();
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      logLines.push(line);
      const entry = JSON.parse(line) as LogEntry;
      logEntries.push(entry);
      for (const waiter of waiters.filter((w) => w.matches(entry))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(entry);
      }
    }
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    output += chunk;
    outputGrew();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // Port 0: the system picks a free one as the server binds it, and the server's log says which.
  const url = port === 0 ? await listeningUrl(child, waiters, () => output) : `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + (options.startTimeoutMs ?? 180_000); ;) {
    if (child.exitCode !== null) throw new Error(`servern avslutades vid start: ${stderr}`);
    const healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`servern startade aldrig: ${output.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    exited,
    logLines: () => [...logLines],
    logEntries: () => [...logEntries],
    output: () => output,
    waitForLog: (matches) => new Promise<LogEntry>((resolve) => waiters.push({ matches, resolve })),
    logged(matches) {
      const written = logEntries.find(matches);
      return written ? Promise.resolve(written) : new Promise<LogEntry>((resolve) => waiters.push({ matches, resolve }));
    },
    printed: (text) => (output.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => textWaiters.push({ text, resolve }))),
    async kill(signal = 'SIGKILL') {
      child.kill(signal);
      await exited;
    },
  };
}
