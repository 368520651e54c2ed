/**
 * `npm run restore -- fil.sql`: reads a dump made by `npm run backup` into an empty database of the
 * same kind (the embedded one in DATA_DIR, or the PostgreSQL of DATABASE_URL). It never writes
 * over data: a database that already has tables is refused. See README, Backup and restore.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../config.js';
import { pgliteStartParams } from '../db/client.js';
import { withoutUnknownSettings } from './dump-settings.js';
import { runOperatorCommand } from '../lib/operator-command.js';
import { embeddedDataPath, lockEmbeddedDatabase, runPostgresTool } from './command.js';

const notEmpty = (where: string) =>
  new Error(`${where} innehåller redan data. Läs bara in en säkerhetskopia i en tom databas, så att inget skrivs över.`);

const countTables = `select count(*)::int as tables from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`;

async function restoreEmbedded(dataDir: string, dump: string): Promise<void> {
  const pgData = embeddedDataPath(dataDir);
  fs.mkdirSync(pgData, { recursive: true });
  const release = lockEmbeddedDatabase(dataDir);
  try {
    const database = await PGlite.create(pgData, { startParams: pgliteStartParams });
    try {
      const [{ tables }] = (await database.query<{ tables: number }>(countTables)).rows as [{ tables: number }];
      if (tables > 0) throw notEmpty(`Den inbäddade databasen i ${dataDir}`);
      // One simple-query string runs as one transaction: all of the dump, or none of it.
      await database.exec(dump);
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
}

/**
 * Reads a dump into an empty PostgreSQL database with psql, as one transaction. The dump may come
 * from the embedded database (the move to PostgreSQL, README): its pg_dump is newer than the
 * server may be, so settings the server does not know are left out of its header.
 */
async function restorePostgres(databaseUrl: string, file: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let knownSettings: Set<string>;
  try {
    const { rows } = await client.query<{ tables: number }>(countTables);
    if (rows[0]!.tables > 0) throw notEmpty('Databasen i DATABASE_URL');
    knownSettings = new Set(
      (await client.query<{ name: string }>('select lower(name) as name from pg_settings')).rows.map(({ name }) => name),
    );
  } finally {
    await client.end();
  }
  const { dump, removed } = withoutUnknownSettings(fs.readFileSync(file, 'utf8'), knownSettings);
  if (removed.length > 0) console.log(`Inställningar som den här PostgreSQL-versionen saknar hoppas över: ${removed.join(', ')}.`);
  await runPostgresTool(
    'psql',
    databaseUrl,
    ['--quiet', '--no-psqlrc', '--set', 'ON_ERROR_STOP=1', '--single-transaction', '--file', '-'],
    dump,
  );
}

await runOperatorCommand(async () => {
  const given = process.argv[2];
  if (!given) {
    console.error('Ange säkerhetskopian som ska läsas in: npm run restore -- saljportalen-2026-11-22-0315.sql');
    return 2;
  }
  const file = path.resolve(given);
  if (!fs.existsSync(file)) {
    console.error(`${file} finns inte.`);
    return 2;
  }
  const config = loadConfig();
  if (config.databaseUrl) await restorePostgres(config.databaseUrl, file);
  else await restoreEmbedded(config.dataDir, fs.readFileSync(file, 'utf8'));
  console.log(`Säkerhetskopian ${file} är inläst. Starta portalen som vanligt med npm start.`);
  return 0;
});
