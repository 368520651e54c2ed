/** Starts the server under test as a child process (bench/server-process.ts) and watches its memory. */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
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
