/**
 * The operator commands as an operator runs them: `npm run import-products` and
 * `npm run replay-webhooks` from the repository root, on the database the server would use.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.js';
import { createPostgresDatabase, testDbKind } from '../../../test/test-server.js';
import { swedishOrder } from '../../../test/shopify-webhooks.js';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { spawnOperatorCommand, type OperatorCommand } from '../../../test/operator-commands.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-commands-'));
let postgres: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;

async function withDatabase<T>(work: (run: <R>(statement: SQL) => Promise<R[]>) => Promise<T>): Promise<T> {
  const database = await openDatabase(postgres ? { databaseUrl: postgres.url } : { dataDir });
  try {
    return await work(async <R>(statement: SQL) => sqlRows<R>(database.db, statement));
  } finally {
    await database.close();
  }
}

/** The command on this file's database; `throughNpm` as an operator types it (operator-commands.ts). */
const command = (script: OperatorCommand, args: string[] = [], throughNpm = false) =>
  spawnOperatorCommand(script, args, { env: { DATA_DIR: dataDir, DATABASE_URL: postgres?.url ?? '', LOG_LEVEL: 'silent' }, throughNpm });

beforeAll(async () => {
  postgres = testDbKind === 'postgres' ? await createPostgresDatabase() : undefined;
}, 60_000);

afterAll(async () => {
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('operator commands', () => {
  it('imports products from a CSV file and reports the rows it skipped', { timeout: 120_000 }, async () => {
    const file = path.join(dataDir, 'produkter.csv');
    fs.writeFileSync(file, 'sku;titel;pris;provision\nSP-1;Kaffe;119,00;25\nSP-2;Te;89;\nSP-3;Socker;gratis;\n');
    const result = await command('import-products', [file], true);
    expect(result.stdout).toContain('2 produkter skapade, 0 uppdaterade, 1 rader hoppades över.');
    expect(result.stdout).toContain('rad 4: ogiltigt pris "gratis"');
    expect(result.code).toBe(1);
    const products = await withDatabase((run) =>
      run<{ sku: string; price_ore: number; commission_bps: number | null }>(
        sql`select sku, price_ore::int, commission_bps from products order by sku`,
      ),
    );
    expect(products).toEqual([
      { sku: 'SP-1', price_ore: 11900, commission_bps: 2500 },
      { sku: 'SP-2', price_ore: 8900, commission_bps: null },
    ]);
    const missing = await command('import-products', [path.join(dataDir, 'finns-inte.csv')]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('finns inte')]);
  });

  it('replays the events that were stored but not processed, once', { timeout: 120_000 }, async () => {
    const order = swedishOrder({ id: 7_800_000_000_001 });
    await withDatabase((run) =>
      run(
        sql`insert into webhook_events (webhook_id, topic, payload, shopify_order_id) values ('kommando-1', 'orders/create', ${JSON.stringify(order)}, 7800000000001)`,
      ),
    );
    const first = await command('replay-webhooks', [], true);
    expect(first.stdout).toMatch(/#\d+ orders\/create: Order #0001 registrerad, 2 nya rader, utan säljare/);
    expect(first.stdout).toContain('1 händelser behandlade, 0 misslyckades.');
    expect(first.code).toBe(0);
    const second = await command('replay-webhooks');
    expect(second.stdout).toContain('0 händelser behandlade, 0 misslyckades.');
    const [row] = await withDatabase((run) =>
      run<{ orders: number; lines: number; processed: boolean }>(sql`
        select (select count(*)::int from orders where shopify_order_id = 7800000000001) as orders,
               (select count(*)::int from order_lines l join orders o on o.id = l.order_id where o.shopify_order_id = 7800000000001) as lines,
               (select processed_at is not null from webhook_events where webhook_id = 'kommando-1') as processed`),
    );
    expect(row).toEqual({ orders: 1, lines: 2, processed: true });
  });
});
