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
 * PGlite is a single-process database: two servers on one data dir would corrupt it.
 * A lock file holding our pid refuses a second opener; a lock left by a dead process is taken over.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
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
