/**
 * `npm run backup [-- fil.sql]`: a SQL dump of the portal's database, the embedded one (PGlite's
 * own pg_dump) or PostgreSQL (pg_dump); `npm run restore` reads it back. See README, Backup and restore.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';
import { loadConfig } from '../config.js';
import { pgliteStartParams } from '../db/client.js';
import { formatDateTime } from '../lib/format.js';
import { embeddedDataPath, lockEmbeddedDatabase, runOperatorCommand, runPostgresTool, writeWhole } from './command.js';

/** `saljportalen-2026-11-22-0315.sql`: Stockholm time, so the files sort by when they were made. */
const defaultFileName = (now = new Date()) => `saljportalen-${formatDateTime(now).replace(' ', '-').replace(':', '')}.sql`;

async function dumpEmbedded(dataDir: string, target: string): Promise<void> {
  const pgData = embeddedDataPath(dataDir);
  if (!fs.existsSync(path.join(pgData, 'PG_VERSION'))) throw new Error(`Det finns ingen inbäddad databas i ${dataDir}.`);
  const release = lockEmbeddedDatabase(dataDir);
  try {
    const pg = await PGlite.create(pgData, { startParams: pgliteStartParams });
    try {
      const dump = await pgDump({ pg, args: ['--no-owner', '--no-privileges'] });
      writeWhole(target, await dump.text());
    } finally {
      await pg.close();
    }
  } finally {
    release();
  }
}

async function dumpPostgres(databaseUrl: string, target: string): Promise<void> {
  const partial = `${target}.${process.pid}.delvis`;
  try {
    // Made first, readable by its owner only: pg_dump keeps the mode of a file that exists.
    fs.writeFileSync(partial, '', { mode: 0o600 });
    await runPostgresTool('pg_dump', databaseUrl, ['--format', 'plain', '--no-owner', '--no-privileges', '--file', partial]);
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

await runOperatorCommand(async () => {
  const config = loadConfig();
  const target = path.resolve(process.argv[2] ?? defaultFileName());
  if (fs.existsSync(target)) {
    console.error(`${target} finns redan. Välj ett annat filnamn, så skrivs ingen säkerhetskopia över.`);
    return 2;
  }
  if (config.databaseUrl) await dumpPostgres(config.databaseUrl, target);
  else await dumpEmbedded(config.dataDir, target);
  const kilobytes = Math.ceil(fs.statSync(target).size / 1024);
  console.log(`Säkerhetskopian är sparad i ${target} (${kilobytes} kB). Läs in den med: npm run restore -- ${target}`);
  return 0;
});
