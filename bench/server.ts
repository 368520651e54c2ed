/** Starts the server under test as a child process (bench/server-process.ts) and watches its memory. */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface BenchServer {
  url: string;
  pid: number;
  /** Resident memory of the server process in bytes, read from /proc. */
  rss(): number;
  stop(): Promise<void>;
}

/** `nodeArgs`: extra flags for the server's Node, e.g. `--cpu-prof` when profiling. */
export async function startServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<BenchServer> {
  const child: ChildProcess = fork(path.join(here, 'server-process.ts'), [], {
    execArgv: ['--import', 'tsx', ...nodeArgs],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`servern avslutades vid start (kod ${code})`)));
  });
  const pid = child.pid!;
  return {
    url: `http://127.0.0.1:${port}`,
    pid,
    rss() {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The server as `node apps/server/dist/main.js` runs it, from its sources: with
 * `WEB_CONCURRENCY` > 1 a cluster primary and its workers (decision 026). Resolves once every
 * worker listens (the primary says so over IPC). `rss` is the primary's alone.
 */
export async function startMainServer(env: Record<string, string>, port: number): Promise<BenchServer> {
  const workers = Number(env.WEB_CONCURRENCY ?? 1);
  const child: ChildProcess = fork(path.join(here, '..', 'apps', 'server', 'src', 'main.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const allListening =
    workers > 1
      ? new Promise<void>((resolve) =>
          child.on('message', (message) => (message as { event?: string }).event === 'workers-listening' && resolve()),
        )
      : Promise.resolve();
  for (let healthy = false; !healthy;) {
    if (child.exitCode !== null) throw new Error(`servern avslutades vid start (kod ${child.exitCode})`);
    healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (!healthy) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await Promise.race([allListening, exited.then((code) => Promise.reject(new Error(`servern avslutades vid start (kod ${code})`)))]);
  const pid = child.pid!;
  return {
    url,
    pid,
    rss() {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A port nobody listens on now, for startMainServer. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
