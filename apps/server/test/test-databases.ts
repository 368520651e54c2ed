/**
 * The API tests' databases, built once per run (vitest's globalSetup, decision 055): one migrated
 * and one migrated and seeded, each a PGlite data dir dump (TEST_DB=pglite) or a PostgreSQL
 * database (TEST_DB=postgres). Every test server starts from a copy, instead of running the
 * migrations and the seed anew: PGlite loads the dump (no initdb either), PostgreSQL copies the
 * database with `CREATE DATABASE … TEMPLATE`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/db/client.js';
import { adminQuery, databaseUrl } from './postgres-admin.js';
import { seedDemoData } from '../src/modules/demo/seed.js';

/** Which template a copy is made from. */
export type TestTemplate = 'migrated' | 'seeded';

/** What the global setup hands the test files (vitest's provide/inject). */
export type TestDatabases =
  | {
      kind: 'pglite';
      dumps: Record<TestTemplate, string>;
      /** Each template as a server's DATA_DIR keeps it (its pgdata folder), for spawned servers to copy. */
      dataDirs: Record<TestTemplate, string>;
    }
  | { kind: 'postgres'; adminUrl: string; databases: Record<TestTemplate, string> };

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabases: TestDatabases | null;
  }
}

/** Builds both templates; `drop` removes them at the end of the run. */
export async function buildTestDatabases(
  kind: 'pglite' | 'postgres',
  options: { adminUrl: string; password: string },
): Promise<{ databases: TestDatabases; drop(): Promise<void> }> {
  if (kind === 'pglite') {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-test-templates-'));
    // On disk, as a server keeps it: the dumps load into in-memory copies, and the folder itself is
    // copied for spawned servers (decision 058).
    const dataDirs = { migrated: path.join(folder, 'migrated-data'), seeded: path.join(folder, 'seeded-data') };
    // A spawned server's first start on an empty data dir runs initdb and the migrations (3 of its
    // 6 CPU seconds): servers whose first start is not what a test is about copy this one instead.
    // The seeded one starts as a copy of it too.
    await (await openDatabase({ dataDir: dataDirs.migrated })).close();
    // initdb gives PGlite 128 MB of buffers, which every start of a copy zeroes: about a hundred
    // milliseconds of its two hundred, for a test's database of a few megabytes (decision 080).
    fs.appendFileSync(path.join(dataDirs.migrated, 'pgdata', 'postgresql.conf'), '\nshared_buffers = 16MB\n');
    fs.cpSync(dataDirs.migrated, dataDirs.seeded, { recursive: true });
    const database = await openDatabase({ dataDir: dataDirs.seeded });
    try {
      const client = (database.db as unknown as { $client: PGlite }).$client;
      const dumps = { migrated: path.join(folder, 'migrated.tar'), seeded: path.join(folder, 'seeded.tar') };
      fs.writeFileSync(dumps.migrated, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
      await seedDemoData(database.db, { password: options.password });
      fs.writeFileSync(dumps.seeded, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
      return { databases: { kind, dumps, dataDirs }, drop: async () => fs.rmSync(folder, { recursive: true, force: true }) };
    } finally {
      await database.close();
    }
  }

  const prefix = `sp_template_${crypto.randomBytes(4).toString('hex')}`;
  const databases = { migrated: `${prefix}_migrated`, seeded: `${prefix}_seeded` };
  const drop = async () => {
    for (const name of Object.values(databases)) await adminQuery(options.adminUrl, `drop database if exists ${name} with (force)`);
  };
  try {
    await adminQuery(options.adminUrl, `create database ${databases.migrated}`);
    const migrated = await openDatabase({ databaseUrl: databaseUrl(options.adminUrl, databases.migrated) });
    await migrated.close();
    // A copy of the migrated one, then seeded: no connection may stay open on a template.
    await adminQuery(options.adminUrl, `create database ${databases.seeded} template ${databases.migrated}`);
    const seeded = await openDatabase({ databaseUrl: databaseUrl(options.adminUrl, databases.seeded) });
    try {
      await seedDemoData(seeded.db, { password: options.password });
    } finally {
      await seeded.close();
    }
  } catch (error) {
    await drop();
    throw error;
  }
  return { databases: { kind, adminUrl: options.adminUrl, databases }, drop };
}

const dumpBlobs = new Map<string, Blob>();

/** The dump a PGlite test server loads, read once per test file. */
export function pgliteDump(databases: TestDatabases | null, template: TestTemplate): Blob | undefined {
  if (databases?.kind !== 'pglite') return undefined;
  const file = databases.dumps[template];
  let blob = dumpBlobs.get(file);
  if (!blob) {
    blob = new Blob([fs.readFileSync(file)]);
    dumpBlobs.set(file, blob);
  }
  return blob;
}

/** The template database a new PostgreSQL test database is copied from. */
export function postgresTemplate(databases: TestDatabases | null, template: TestTemplate): string | undefined {
  return databases?.kind === 'postgres' ? databases.databases[template] : undefined;
}

/**
 * Copies one of the run's templates into `dataDir` (a spawned PGlite server's DATA_DIR), as if a
 * server had started there once; false without the run's templates (the server then migrates, and seeds).
 */
export function copyTemplateDataDir(databases: TestDatabases | null, template: TestTemplate, dataDir: string): boolean {
  if (databases?.kind !== 'pglite') return false;
  fs.cpSync(path.join(databases.dataDirs[template], 'pgdata'), path.join(dataDir, 'pgdata'), { recursive: true });
  return true;
}
