/**
 * The real server as a child process (`node --import tsx apps/server/src/main.ts`), for tests
 * that kill it, stop it or restart it on the same data: what `npm start` runs, signals and all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SQL } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.js';
import { TEST_WEBHOOK_SECRET } from './shopify-webhooks.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

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
    return ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows;
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
  /** Everything the server has written so far to stdout and stderr, log lines or not. */
  output(): string;
  /** Resolves with the first log line, from now on, that `matches` accepts. */
  waitForLog(matches: (entry: LogEntry) => boolean): Promise<LogEntry>;
  /** Resolves when the process has exited, with how. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the server on `port` over `data` (demo data, webhook secret, no rate limits unless
 * `env` says otherwise) and resolves once /api/health answers. Start-up is given three minutes: the
 * machine may be busy.
 */
export async function spawnServer(options: { port: number; data: ServerData; env?: Record<string, string> }): Promise<SpawnedServer> {
  const { port, data } = options;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
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
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const waiters: { matches(entry: LogEntry): boolean; resolve(entry: LogEntry): void }[] = [];
  const logLines: string[] = [];
  let output = '';
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      logLines.push(line);
      const entry = JSON.parse(line) as LogEntry;
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
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 180_000; ;) {
    if (child.exitCode !== null) throw new Error(`servern avslutades vid start: ${stderr}`);
    const healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`servern startade aldrig: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    exited,
    logLines: () => [...logLines],
    output: () => output,
    waitForLog: (matches) => new Promise<LogEntry>((resolve) => waiters.push({ matches, resolve })),
    async kill(signal = 'SIGKILL') {
      child.kill(signal);
      await exited;
    },
  };
}
