import cluster, { type Worker } from 'node:cluster';
import { pino, type Logger } from 'pino';
import { loadConfig, type Config } from './config.js';
import { logRedaction } from './lib/log-redaction.js';
import { assertPortFree, describeStartupFailure } from './startup-failure.js';

/** A worker that dies is replaced, but not more than this many times within RESTART_WINDOW_MS (then the whole server stops). */
export const MAX_RESTARTS = 5;
export const RESTART_WINDOW_MS = 60_000;

/**
 * `WEB_CONCURRENCY=N` (N > 1): this process becomes the primary of N server workers (node:cluster)
 * sharing the port, and resolves true; the caller then does nothing more. Otherwise (one worker,
 * or a configuration the normal start reports) it resolves false and the caller starts the server
 * itself, as without a cluster. Decision 026.
 *
 * - The primary checks the port, then starts one worker; once it listens (it has run the
 *   migrations, the superadmin and the demo data) the others start, finding that work done.
 * - A worker that dies while the server runs is replaced, at most MAX_RESTARTS times a minute;
 *   one that cannot start stops them all, with exit code 1 (it has written why).
 * - SIGTERM or SIGINT to the primary passes SIGTERM to every worker; each drains as a single
 *   process does (close-gracefully.ts); the primary exits when they all have, 0 if they all did.
 *
 * `workerScript` is the server's own main module, which each worker runs.
 */
export async function startClusterPrimary(workerScript: string): Promise<boolean> {
  let config: Config;
  try {
    config = loadConfig();
  } catch {
    return false;
  }
  if (config.webConcurrency <= 1) return false;

  const log = pino({ level: config.logLevel, ...logRedaction }).child({ role: 'primary' });
  // The workers' listen goes through this process: a port taken by another program is told here, once.
  try {
    await assertPortFree(config.port, config.host ?? '0.0.0.0');
  } catch (error) {
    console.error(describeStartupFailure(error, config));
    process.exit(1);
  }
  superviseWorkers({ workers: config.webConcurrency, port: config.port, workerScript, log });
  return true;
}

function superviseWorkers(options: { workers: number; port: number; workerScript: string; log: Logger }) {
  const { workers, port, log } = options;
  cluster.setupPrimary({ exec: options.workerScript });

  const listening = new Set<number>();
  const restarts: number[] = [];
  let stopping = false;
  let exitCode = 0;

  // A worker that has exited may stay in cluster.workers until its IPC channel has closed too.
  const running = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => Boolean(worker) && !worker!.isDead());
  const stopAll = (code: number) => {
    if (code !== 0) exitCode = code;
    if (stopping) return;
    stopping = true;
    for (const worker of running()) worker.process.kill('SIGTERM');
    if (running().length === 0) process.exit(exitCode);
  };

  cluster.on('listening', (worker, address) => {
    if (address.port !== port || listening.has(worker.id)) return;
    listening.add(worker.id);
    // The first worker has done the one-time start work: the others may come.
    if (listening.size === 1 && worker.id === 1) for (let i = 1; i < workers; i++) cluster.fork();
    if (listening.size === workers && restarts.length === 0) {
      const pids = running().map((w) => w.process.pid);
      log.info({ workers, pids }, `${workers} arbetsprocesser tar emot förfrågningar`);
      // A parent that started the server with an IPC channel (a supervisor, `npm run bench`) is told too.
      process.send?.({ event: 'workers-listening', workers, pids });
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const started = listening.delete(worker.id);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (running().length === 0) {
        log.info({ exitCode }, 'alla arbetsprocesser har stängt');
        process.exit(exitCode);
      }
      return;
    }
    if (!started) {
      // It has written why on stderr (configuration, database, …); the others would fail alike.
      log.error({ workerPid: worker.process.pid, code, signal }, 'en arbetsprocess kunde inte starta: servern stoppas');
      stopAll(1);
      return;
    }
    const now = Date.now();
    if (!mayRestart(restarts, now)) {
      log.error(
        { workerPid: worker.process.pid, code, signal, restarts: restarts.length },
        'arbetsprocesser avslutas om och om igen: servern stoppas',
      );
      stopAll(1);
      return;
    }
    restarts.push(now);
    log.error({ workerPid: worker.process.pid, code, signal }, 'en arbetsprocess avslutades oväntat: en ny startas');
    cluster.fork();
  });

  const stop = (signal: string) => {
    if (stopping) return;
    log.info({ workers: running().length }, `${signal}: arbetsprocesserna slutför pågående förfrågningar och stänger`);
    stopAll(0);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  cluster.fork();
}

/**
 * Whether one more worker may be started at `now`, after those started at `restarts` (oldest
 * first): at most MAX_RESTARTS within RESTART_WINDOW_MS. Forgets the restarts older than that.
 */
export function mayRestart(restarts: number[], now: number): boolean {
  while (restarts.length > 0 && now - restarts[0]! >= RESTART_WINDOW_MS) restarts.shift();
  return restarts.length < MAX_RESTARTS;
}

/** Whether this process is the first worker of a cluster, or the only process: the one that greets the operator. */
export const greetsTheOperator = () => !cluster.isWorker || cluster.worker?.id === 1;
