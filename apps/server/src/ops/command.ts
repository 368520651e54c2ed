import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { AppError } from '../errors.js';
import { acquireDataDirLock } from '../db/data-dir-lock.js';

/** The embedded database's files, which only one process may open at a time. */
export function lockEmbeddedDatabase(dataDir: string): () => void {
  try {
    return acquireDataDirLock(dataDir);
  } catch (error) {
    if (error instanceof AppError && error.code === 'DATA_DIR_LOCKED') {
      throw new AppError(
        'DATA_DIR_LOCKED',
        `${error.message} Den inbäddade databasen kan bara kopieras eller läsas in när servern är stoppad.`,
      );
    }
    throw error;
  }
}

/**
 * Runs pg_dump or psql against a PostgreSQL URL, with `input` on its standard input. The password goes in PGPASSWORD, not on the
 * command line, where any user of the machine could read it in the process list.
 */
export function runPostgresTool(tool: 'pg_dump' | 'psql', databaseUrl: string, args: string[], input?: string): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return new Promise((resolve, reject) => {
    const child = spawn(tool, ['--dbname', url.toString(), ...args], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      // pg_dump writes to its --file; what psql prints while loading (setval results) is noise.
      stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    });
    // psql reads the dump from standard input (`--file -`); an early exit is reported below.
    if (input !== undefined) child.stdin!.on('error', () => {}).end(input);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(error.code === 'ENOENT' ? `${tool} saknas: installera PostgreSQL:s klientprogram (postgresql-client).` : error.message),
      ),
    );
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} misslyckades (kod ${code}): ${stderr.trim()}`))));
  });
}

/**
 * A dump is written by another program (pg_dump, the running server) under a temporary name
 * (`write` makes it readable by its owner only), and renamed only when `write` finishes: a dump cut short never looks
 * complete. Text we hold whole goes through write-file-atomic instead (`writeFileAtomic(target, text, { mode: 0o600 })`).
 */
export async function writeThroughPartialFile(target: string, write: (partial: string) => Promise<void>): Promise<void> {
  const partial = `${target}.${process.pid}.delvis`;
  try {
    await write(partial);
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

export const embeddedDataPath = (dataDir: string) => path.join(dataDir, 'pgdata');
