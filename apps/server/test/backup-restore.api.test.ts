/**
 * Issue 8, backup and restore: `npm run backup` dumps the demo data of the embedded database
 * (PGlite's pg_dump) or of PostgreSQL (pg_dump), `npm run restore` reads it into an empty one,
 * and every figure is the same afterwards; the restored database takes new data where the old
 * left off. Neither command writes over data, nor touches an embedded database a server holds.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, migrationsFolder, type Database } from '../src/db/client.js';
import { acquireDataDirLock } from '../src/db/data-dir-lock.js';
import { seedDemoData } from '../src/db/seed.js';
import { loadOverview } from '../src/modules/figures/load-overview.js';
import { insertGroupWithUniqueCode } from '../src/modules/groups/group-code.js';
import { sqlRows } from './admin-fixtures.js';
import { ledgerViolations } from './ledger-invariants.js';
import { repoRoot } from './spawned-server.js';
import { DEMO_TEST_PASSWORD, createPostgresDatabase, testDbKind } from './test-server.js';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-backup-'));
const dumpFile = path.join(workDir, 'saljportalen.sql');

/** Where a database lives: an embedded one in a data dir, or a PostgreSQL database. */
interface Place {
  env: Record<string, string>;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

async function place(name: string): Promise<Place> {
  const dataDir = path.join(workDir, name);
  if (testDbKind === 'postgres') {
    const postgres = await createPostgresDatabase();
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: postgres.url },
      open: () => openDatabase({ databaseUrl: postgres.url }),
      drop: () => postgres.drop(),
    };
  }
  return { env: { DATA_DIR: dataDir, DATABASE_URL: '' }, open: () => openDatabase({ dataDir }), drop: async () => {} };
}

/** `npm run <script> -- <args>` from the repository root, as an operator types it. */
function npmRun(script: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env, INIT_CWD: repoRoot },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** Every figure the portal shows and every row count, in one comparable value. */
async function figures(database: Database) {
  const [counts] = await sqlRows<Record<string, string>>(
    database.db,
    sql`select
      (select count(*) from users)::text as users,
      (select md5(string_agg(concat_ws(',', email, full_name, password_hash, is_superadmin, active_group_id), ';' order by id)) from users) as user_rows,
      (select string_agg(concat_ws(':', id, name, code, archived, leaderboard_visible), ',' order by id) from groups) as groups,
      (select md5(string_agg(concat_ws(',', user_id, group_id, role, link_code), ';' order by id)) from memberships) as memberships,
      (select count(*) || ':' || sum(subtotal_ore) || ':' || sum(commission_ore) from orders) as orders,
      (select count(*) || ':' || sum(amount_ore) || ':' || sum(commission_ore) || ':' || count(payout_id) from order_lines) as lines,
      (select string_agg(concat_ws(':', id, group_id, status, orders_count, lines_count, commission_ore, paid_at), ',' order by id) from payouts) as payouts,
      (select count(*) from audit_entries)::text as audit,
      (select count(*) from drizzle.__drizzle_migrations)::text as migrations`,
  );
  return { counts, overview: await loadOverview(database.db, {}) };
}

let source: Place;
let target: Place;
let before: Awaited<ReturnType<typeof figures>>;

beforeAll(async () => {
  source = await place('kalla');
  target = await place('mal');
  const database = await source.open();
  try {
    await seedDemoData(database.db, { password: DEMO_TEST_PASSWORD });
    before = await figures(database);
  } finally {
    await database.close();
  }
}, 120_000);

afterAll(async () => {
  await source?.drop();
  await target?.drop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('round-trips the demo data into an empty database with every figure the same', { timeout: 180_000 }, async () => {
    const backup = await npmRun('backup', [dumpFile], source.env);
    expect(backup, backup.output).toMatchObject({ code: 0 });
    expect(backup.output).toContain(`Säkerhetskopian är sparad i ${dumpFile}`);
    expect(fs.statSync(dumpFile).mode & 0o077).toBe(0);

    const restore = await npmRun('restore', [dumpFile], target.env);
    expect(restore, restore.output).toMatchObject({ code: 0 });
    expect(restore.output).toContain('är inläst');

    const restored = await target.open();
    try {
      const after = await figures(restored);
      expect(after).toEqual(before);
      expect(Number(after.counts!.migrations)).toBe(fs.readdirSync(migrationsFolder).filter((file) => file.endsWith('.sql')).length);
      expect(await ledgerViolations(restored.db)).toEqual([]);
      // New rows continue the identities instead of colliding with restored ones.
      const [highest] = await sqlRows<{ id: number }>(restored.db, sql`select max(id) as id from groups`);
      const group = await insertGroupWithUniqueCode(restored.db, { name: 'Efter återläsningen' });
      expect(group.id).toBeGreaterThan(Number(highest!.id));
    } finally {
      await restored.close();
    }
  });

  it('refuses to restore into a database that has data, and to back up over an existing file', { timeout: 180_000 }, async () => {
    const intoFull = await npmRun('restore', [dumpFile], target.env);
    expect(intoFull.code).not.toBe(0);
    expect(intoFull.output).toContain('innehåller redan data');

    const overwrite = await npmRun('backup', [dumpFile], source.env);
    expect(overwrite.code).toBe(2);
    expect(overwrite.output).toContain('finns redan');
  });

  it.runIf(testDbKind === 'pglite')('leaves an embedded database alone while a server has it open', { timeout: 180_000 }, async () => {
    const release = acquireDataDirLock(source.env.DATA_DIR!);
    try {
      const backup = await npmRun('backup', [path.join(workDir, 'medan-servern-kor.sql')], source.env);
      expect(backup.code).not.toBe(0);
      expect(backup.output).toContain(`används redan av process ${process.pid}`);
      expect(backup.output).toContain('bara kopieras eller läsas in när servern är stoppad');
      expect(fs.existsSync(path.join(workDir, 'medan-servern-kor.sql'))).toBe(false);
    } finally {
      release();
    }
  });
});
