import fs from 'node:fs';
import path from 'node:path';

/**
 * Everything the process creates from now on is its user's alone: directories 700, files 600,
 * whatever umask it was started with. DATA_DIR holds the database, live reset links in the
 * outbox and the signing secret; a umask is the one setting that covers every writer at once
 * (PGlite's own files included), where a mode on each call would miss the next new one.
 */
export function keepNewFilesPrivate(): void {
  process.umask(0o077);
}

/**
 * Takes group and other permissions off DATA_DIR and everything under it (a data dir created
 * by an older version, copied in with `cp`, or restored under a loose umask). Symbolic links are
 * neither followed nor changed. Returns what it changed, and what it could not (not ours).
 */
export function makeDataDirPrivate(dataDir: string): { tightened: string[]; failed: string[] } {
  const tightened: string[] = [];
  const failed: string[] = [];
  const pending = [dataDir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch {
      continue; // gone meanwhile, or DATA_DIR not created yet
    }
    if (stat.isSymbolicLink()) continue;
    if ((stat.mode & 0o077) !== 0) {
      try {
        fs.chmodSync(current, stat.mode & 0o700);
        tightened.push(current);
      } catch {
        failed.push(current);
      }
    }
    if (!stat.isDirectory()) continue;
    try {
      for (const name of fs.readdirSync(current)) pending.push(path.join(current, name));
    } catch {
      failed.push(current);
    }
  }
  return { tightened, failed };
}
