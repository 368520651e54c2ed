/**
 * The embedded database on its data dir (PGlite, whatever TEST_DB says): durable writes, and
 * never two openers of one data dir.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { sqlRows } from '../../test/admin-fixtures.js';
import { openDatabase, pgliteStartParams, type Database } from './client.js';

let dataDir: string;
const opened: Database[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
const open = async () => {
  const database = await openDatabase({ dataDir });
  opened.push(database);
  return database;
};

describe('the embedded database', () => {
  it('runs with fsync on, so that a crash loses no committed data', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-fsync-'));
    expect(pgliteStartParams).not.toContain('-F');
    const database = await open();
    expect(await sqlRows(database.db, sql`show fsync`)).toEqual([{ fsync: 'on' }]);
  });

  it('refuses a second open of its data dir in the same process, and opens again once closed', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-twice-'));
    const first = await open();
    await expect(openDatabase({ dataDir })).rejects.toMatchObject({
      code: 'DATA_DIR_LOCKED',
      message: expect.stringContaining('är redan öppen i den här processen'),
    });
    // The refused attempt left the first one and its lock alone.
    expect(await sqlRows(first.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
    expect(fs.readFileSync(path.join(dataDir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));

    await opened.pop()!.close();
    const again = await open();
    expect(await sqlRows(again.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });
});
