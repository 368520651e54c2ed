/**
 * `npm run backup [-- fil.sql]`: a SQL dump of the portal's database, the embedded one (PGlite's
 * own pg_dump) or PostgreSQL (pg_dump); `npm run restore` reads it back. See README, Backup and restore.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../config.js';
import { AppError } from '../errors.js';
import { pgliteStartParams } from '../db/client.js';
import { dumpPglite } from '../db/pglite-dump.js';
import { formatDateTime } from '../lib/format.js';
import { requestOnlineBackup } from './online-backup.js';
import writeFileAtomic from 'write-file-atomic';
import { runOperatorCommand } from '../lib/operator-command.js';
import { embeddedDataPath, lockEmbeddedDatabase, runPostgresTool, writeThroughPartialFile } from './command.js';

/** `saljportalen-2026-11-22-0315.sql`: Stockholm time, so the files sort by when they were made. */
const defaultFileName = (now = new Date()) => `saljportalen-${formatDateTime(now).replace(' ', '-').replace(':', '')}.sql`;

async function dumpEmbedded(dataDir: string, target: string): Promise<'online' | 'offline'> {
  const pgData = embeddedDataPath(dataDir);
  if (!fs.existsSync(path.join(pgData, 'PG_VERSION'))) throw new Error(`Det finns ingen inbäddad databas i ${dataDir}.`);
  let release: () => void;
  try {
    release = lockEmbeddedDatabase(dataDir);
  } catch (error) {
    // The portal is running: it makes the dump itself.
    if (error instanceof AppError && error.code === 'DATA_DIR_LOCKED' && (await dumpFromRunningServer(dataDir, target))) return 'online';
    throw error;
  }
  try {
    const pg = await PGlite.create(pgData, { startParams: pgliteStartParams });
    try {
      await writeFileAtomic(target, await dumpPglite(pg), { mode: 0o600 });
    } finally {
      await pg.close();
    }
  } finally {
    release();
  }
  return 'offline';
}

/** No server answered on the backup socket: the data dir is locked by a process that is not a server. */
class NoRunningServer extends Error {}

/** Asks the server running on `dataDir` for the dump (ops/online-backup.ts); false when none answers. */
async function dumpFromRunningServer(dataDir: string, target: string): Promise<boolean> {
  let answered = false;
  await writeThroughPartialFile(target, async (partial) => {
    answered = (await requestOnlineBackup(dataDir, partial)) === 'written';
    if (!answered) throw new NoRunningServer();
    // A dump cut short (the server stopped while sending) lacks pg_dump's last line.
    const size = fs.statSync(partial).size;
    const tail = Buffer.alloc(Math.min(size, 200));
    const file = fs.openSync(partial, 'r');
    fs.readSync(file, tail, 0, tail.length, size - tail.length);
    fs.closeSync(file);
    if (!tail.toString('utf8').includes('PostgreSQL database dump complete'))
      throw new Error('Säkerhetskopian från servern blev inte hel. Försök igen.');
  }).catch((error: unknown) => {
    if (!(error instanceof NoRunningServer)) throw error;
  });
  return answered;
}

function dumpPostgres(databaseUrl: string, target: string): Promise<void> {
  return writeThroughPartialFile(target, (partial) => {
    // Made first, readable by its owner only: pg_dump keeps the mode of a file that exists.
    fs.writeFileSync(partial, '', { mode: 0o600 });
    return runPostgresTool('pg_dump', databaseUrl, ['--format', 'plain', '--no-owner', '--no-privileges', '--file', partial]);
  });
}

await runOperatorCommand(async () => {
  const config = loadConfig();
  const target = path.resolve(process.argv[2] ?? defaultFileName());
  if (fs.existsSync(target)) {
    console.error(`${target} finns redan. Välj ett annat filnamn, så skrivs ingen säkerhetskopia över.`);
    return 2;
  }
  let how: 'online' | 'offline' = 'offline';
  if (config.databaseUrl) await dumpPostgres(config.databaseUrl, target);
  else how = await dumpEmbedded(config.dataDir, target);
  const kilobytes = Math.ceil(fs.statSync(target).size / 1024);
  if (how === 'online') console.log('Den körande portalen gjorde säkerhetskopian; den fortsätter som vanligt.');
  console.log(`Säkerhetskopian är sparad i ${target} (${kilobytes} kB). Läs in den med: npm run restore -- ${target}`);
  return 0;
});
