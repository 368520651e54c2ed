import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';

/**
 * A plain SQL dump of a PGlite database by PGlite's own pg_dump (loaded when first needed: it is
 * a WebAssembly program of its own). The dump opens a session of its own settings and statements
 * on `pg`, so it is only ever run on a database nothing else is using: the one `npm run backup`
 * opened, or a copy of the running server's (Database.dump).
 */
export async function dumpPglite(pg: PGlite): Promise<string> {
  const { pgDump } = await import('@electric-sql/pglite-tools/pg_dump');
  return (await pgDump({ pg, args: ['--no-owner', '--no-privileges'] })).text();
}

/**
 * A dump of the running server's embedded database without holding its event loop (issue 34
 * point 2). On a data dir, PGlite's files are copied with the file system's own asynchronous copy
 * while its queries wait (a checkpoint first, so the copy needs little recovery), and a worker
 * thread opens the copy and dumps it: the WebAssembly of the copy's PGlite and of pg_dump runs
 * there, not on the thread that answers requests. The copy holds what was committed at that
 * moment, like the files after a crash, and is removed afterwards. An in-memory database (tests)
 * is copied by PGlite's own dumpDataDir. The worker is dist/pglite-dump-worker.js in the bundle
 * and the TypeScript source (through tsx) when the server runs from its sources.
 */
export async function dumpRunningPglite(pg: PGlite, pgDataDir?: string): Promise<string> {
  if (!pgDataDir) return dumpInWorker(await (await pg.dumpDataDir('none')).arrayBuffer());
  // Beside the database, in the server's private data dir, on the same disk.
  const copy = await fs.promises.mkdtemp(path.join(path.dirname(pgDataDir), 'backup-copy-'));
  try {
    await copyWhileRunning(pgDataDir, copy, (work) => pg.runExclusive(work));
    return await dumpInWorker(copy);
  } finally {
    await fs.promises.rm(copy, { recursive: true, force: true });
  }
}

/** A file's path under a data dir, with what its size and change time were when it was last copied. */
type Copied = Map<string, { size: number; mtimeMs: number }>;

/** The files under a data dir, and its directories (PostgreSQL needs the empty ones too). */
async function entriesUnder(dir: string): Promise<{ files: string[]; dirs: string[] }> {
  const entries = await fs.promises.readdir(dir, { recursive: true, withFileTypes: true });
  const relative = (entry: fs.Dirent) => path.relative(dir, path.join(entry.parentPath, entry.name));
  return {
    files: entries.filter((entry) => entry.isFile()).map(relative),
    dirs: entries.filter((entry) => entry.isDirectory()).map(relative),
  };
}

/** How recent a file's change must be for it to be copied again while the database waits. */
const SETTLE_MS = 1_000;

/**
 * A consistent copy of a data dir that keeps being written, in two passes. The first copies every
 * file while the database goes on; the second, while its queries wait (`exclusive`), copies again
 * each file changed since the first began (by its change time, with a second's margin for the file
 * system's clock, or its size) and drops the files gone meanwhile. So the copy is the files as they
 * were at one moment, and the database waits only for the few files it was writing: its WAL and the
 * tables it had just changed.
 */
export async function copyWhileRunning(source: string, target: string, exclusive: (work: () => Promise<void>) => Promise<void>) {
  const copied: Copied = new Map();
  const copyFile = async (file: string) => {
    const from = path.join(source, file);
    const before = await fs.promises.stat(from);
    await fs.promises.mkdir(path.dirname(path.join(target, file)), { recursive: true });
    await fs.promises.copyFile(from, path.join(target, file));
    copied.set(file, { size: before.size, mtimeMs: before.mtimeMs });
  };
  const firstPassAt = Date.now();
  const { files, dirs } = await entriesUnder(source);
  for (const dir of dirs) await fs.promises.mkdir(path.join(target, dir), { recursive: true });
  for (const file of files) {
    // A file removed meanwhile (a dropped table's) is settled by the second pass.
    await copyFile(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await exclusive(async () => {
    const latest = await entriesUnder(source);
    for (const dir of latest.dirs) await fs.promises.mkdir(path.join(target, dir), { recursive: true });
    const now = new Set(latest.files);
    for (const file of copied.keys()) if (!now.has(file)) await fs.promises.rm(path.join(target, file), { force: true });
    for (const file of now) {
      const was = copied.get(file);
      const stat = await fs.promises.stat(path.join(source, file));
      if (!was || stat.size !== was.size || stat.mtimeMs !== was.mtimeMs || stat.mtimeMs >= firstPassAt - SETTLE_MS) await copyFile(file);
    }
  });
}

/** `source`: a copied data dir's path, or a data dir as PGlite's dumpDataDir tarball. */
async function dumpInWorker(source: string | ArrayBuffer): Promise<string> {
  const fromSources = import.meta.url.endsWith('.ts');
  const worker = new Worker(new URL(fromSources ? './pglite-dump-worker.ts' : './pglite-dump-worker.js', import.meta.url), {
    execArgv: fromSources && !process.execArgv.includes('tsx') ? [...process.execArgv, '--import', 'tsx'] : process.execArgv,
  });
  try {
    return await new Promise<string>((resolve, reject) => {
      worker.once('message', (answer: { text?: string; error?: string }) =>
        answer.text !== undefined ? resolve(answer.text) : reject(new Error(answer.error ?? 'okänt fel i säkerhetskopieringen')),
      );
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`säkerhetskopieringens tråd avslutades (kod ${code})`)));
      worker.postMessage(source, typeof source === 'string' ? [] : [source]);
    });
  } finally {
    await worker.terminate();
  }
}
