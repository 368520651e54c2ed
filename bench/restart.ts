/**
 * Issue 34, item 1: what a start costs. `npm start` as an operator runs it, on an embedded data
 * dir with the demo data, nothing to build: the first start (which migrates and seeds), then
 * restarts. For each, the wall time from spawn until the portal says it runs (and `/api/ready` says 200), and the server
 * process's CPU time (user + system, from /proc/<pid>/stat) and peak resident memory (VmHWM)
 * at that moment. The figures belong here and not in a test: a timed assertion fails on a busy
 * machine without saying anything about the code.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server.js';

export interface StartFigures {
  wallMs: number;
  cpuMs: number;
  peakRssBytes: number;
}

export interface RestartFigures {
  first: StartFigures;
  restarts: StartFigures[];
  /** Wall time of `npm start` with a wrong setting (PORT=abc) until it has said so and exited. */
  configErrorMs: number;
}

async function configError(root: string): Promise<number> {
  const started = performance.now();
  const npm = spawn('npm', ['start'], { cwd: root, env: { ...process.env, PORT: 'abc' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
  const code = await new Promise<number | null>((resolve) => npm.once('exit', resolve));
  if (code !== 1 || !said.includes('Säljportalen kunde inte starta: Ogiltig konfiguration: PORT')) throw new Error(`oväntat svar: ${said}`);
  return performance.now() - started;
}

/** Clock ticks per second of /proc/<pid>/stat's utime and stime: 100 on every Linux we run on. */
const CLOCK_TICKS = 100;

function serverPidOf(dataDir: string): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      const command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (environ.includes(`DATA_DIR=${dataDir}`) && command.includes('scripts/start.mjs')) return Number(entry);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return undefined;
}

function cpuMsOf(pid: number): number {
  // Fields after the command's closing bracket: state is the 1st, utime the 12th, stime the 13th.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

function peakRssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * `npm start` on an embedded demo data dir, resolved when the portal says it runs: its banner
 * ('Säljportalen kör på …') is printed once it listens, which it does only when ready (the read
 * model loaded, the migrations run). Waits for that line, not the clock; `/api/ready` confirms it.
 */
async function startPortal(root: string, dataDir: string, port: number) {
  const npm = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => npm.once('exit', resolve));
  const stop = async () => {
    npm.kill('SIGTERM');
    await exited;
  };
  let said = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const listen = (chunk: string) => {
        said += chunk;
        if (said.includes('Säljportalen kör på')) resolve();
      };
      npm.stdout!.setEncoding('utf8').on('data', listen);
      npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
      npm.once('exit', () => reject(new Error(`npm start avslutades: ${said}`)));
    });
    npm.stdout!.resume();
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`);
    if (!ready.ok) throw new Error(`/api/ready svarade ${ready.status} efter start`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

async function startOnce(root: string, dataDir: string, port: number): Promise<StartFigures> {
  const started = performance.now();
  const portal = await startPortal(root, dataDir, port);
  try {
    const wallMs = performance.now() - started;
    const pid = serverPidOf(dataDir);
    if (!pid) throw new Error('hittade inte serverns process');
    return { wallMs, cpuMs: cpuMsOf(pid), peakRssBytes: peakRssOf(pid) };
  } finally {
    await portal.stop();
  }
}

/** `restarts` starts after the first; the build must be up to date (npm run build). */
export async function measureRestart(root: string, restarts = 3): Promise<RestartFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-bench-restart-'));
  try {
    const port = await freePort();
    const first = await startOnce(root, dataDir, port);
    const again: StartFigures[] = [];
    for (let run = 0; run < restarts; run++) again.push(await startOnce(root, dataDir, port));
    return { first, restarts: again, configErrorMs: await configError(root) };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface OnlineBackupFigures {
  requests: number;
  longestWaitMs: number;
  backupMs: number;
  dataDirBytes: number;
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/**
 * Issue 34, item 2: `npm run backup` of a running embedded portal (demo data) while a loop asks
 * `/api/health` and the demo teacher's leaderboard over and over: the longest any of them waited.
 */
export async function measureOnlineBackup(root: string): Promise<OnlineBackupFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-bench-backup-'));
  const port = await freePort();
  const portal = await startPortal(root, dataDir, port);
  const base = `http://127.0.0.1:${port}`;
  try {
    const password = fs.readFileSync(path.join(dataDir, 'demo-password'), 'utf8').trim();
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'larare@bjorkskolan.se', password }),
    });
    const { token } = (await login.json()) as { token: string };
    let asking = true;
    const waits: number[] = [];
    const loop = (async () => {
      for (let turn = 0; asking; turn++) {
        const sent = performance.now();
        const response =
          turn % 2 === 0
            ? await fetch(`${base}/api/health`)
            : await fetch(`${base}/api/group/leaderboard-mine`, { headers: { authorization: `Bearer ${token}` } });
        await response.arrayBuffer();
        waits.push(performance.now() - sent);
      }
    })();
    const file = path.join(dataDir, 'bench-backup.sql');
    const started = performance.now();
    // Spawned, not spawnSync: the loop above must go on asking meanwhile, in this very process.
    const backup = spawn('npm', ['run', '--silent', 'backup', '--', file], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const code = await new Promise<number | null>((resolve) => backup.once('exit', resolve));
    const backupMs = performance.now() - started;
    asking = false;
    await loop;
    if (code !== 0) throw new Error(`npm run backup misslyckades (kod ${code})`);
    return { requests: waits.length, longestWaitMs: Math.max(...waits), backupMs, dataDirBytes: bytesUnder(path.join(dataDir, 'pgdata')) };
  } finally {
    await portal.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
