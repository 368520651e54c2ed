import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../errors.js';

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The data dirs this process has locked. The pid in a lock file cannot tell: a lock that holds our
 * own pid may be left by an earlier process that had the same one (a container's server is pid 1
 * on every start), and is then taken over.
 */
const lockedHere = new Set<string>();

/**
 * PGlite is a single-process database that must be opened once: two openers of one data dir,
 * in two processes or in one, would corrupt it. A lock file holding our pid refuses a second
 * process; the set above refuses a second opener in this one; a lock left by a dead process is
 * taken over.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'pglite.lock');
  const key = fs.realpathSync(dataDir);
  if (lockedHere.has(key)) {
    throw new AppError(
      'DATA_DIR_LOCKED',
      `Databasen i ${dataDir} är redan öppen i den här processen (${process.pid}). PGlite får bara öppnas en gång per datakatalog: använd den öppna databasen eller stäng den först.`,
    );
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      lockedHere.add(key);
      return () => {
        lockedHere.delete(key);
        fs.rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockPath, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isProcessAlive(holder)) {
        throw new AppError(
          'DATA_DIR_LOCKED',
          `Databasen i ${dataDir} används redan av process ${holder}. Stoppa den först eller välj en annan DATA_DIR.`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new AppError('DATA_DIR_LOCKED', `Kunde inte låsa ${dataDir}.`);
}
