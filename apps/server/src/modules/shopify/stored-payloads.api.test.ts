/**
 * Issue 28, point 10 (decision 054): Shopify payloads kept whole from before the upgrade are reduced
 * when the server starts, before it listens, not at the first retention run; processes that start
 * together share the work; a start with nothing left does nothing. On PGlite and PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { swedishOrder } from '../../../test/shopify-webhooks.js';
import { openTestDatabase, testDbKind } from '../../../test/test-server.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { reduceStoredPayloads } from './reduce-stored-payloads.js';

const BUYER = ['Astrid', 'Lindgren', 'exempel.se', 'Dalagatan', '070-123', '192.0.2.7'];

const wholeOrder = (id: number) => ({
  ...swedishOrder({ id, refCode: 'ABC123' }),
  email: 'astrid.lindgren@exempel.se',
  browser_ip: '192.0.2.7',
  billing_address: { first_name: 'Astrid', last_name: 'Lindgren', address1: 'Dalagatan 46', phone: '070-123 45 67' },
  customer: { id: 9, first_name: 'Astrid', last_name: 'Lindgren', email: 'astrid.lindgren@exempel.se' },
});

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-stored-payloads-'));
  database = await openTestDatabase();
});

afterAll(async () => {
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Events as a version before decision 035 stored them: the buyer in full, `payload_reduced` false. */
async function storeWhole(count: number, firstId: number) {
  for (let index = 0; index < count; index++) {
    const id = firstId + index;
    await database.db.execute(sql`insert into webhook_events (webhook_id, topic, payload, shopify_order_id)
                                  values (${`hel-${id}`}, 'orders/create', ${JSON.stringify(wholeOrder(id))}, ${id})`);
  }
}

describe(`payloads kept whole before the upgrade (${testDbKind})`, () => {
  it('are reduced by the start, before the server listens, with no retention run', async () => {
    await storeWhole(3, 7_700_000_000_001);
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SCHEDULED_JOBS: 'off',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ...(database.kind === 'postgres' ? { DATABASE_URL: 'postgres://unused' } : {}),
    });
    const app = await buildApp({ config, database, jwtSecret: 'test-secret-test-secret-test-secret-0123' });
    try {
      // Built, not listening: what it would serve is already reduced.
      expect(app.server.listening).toBe(false);
      const events = await sqlRows<{ payload: string; payload_reduced: boolean }>(
        database.db,
        sql`select payload, payload_reduced from webhook_events where webhook_id like 'hel-%'`,
      );
      expect(events).toHaveLength(3);
      for (const event of events) {
        expect(event.payload_reduced).toBe(true);
        for (const personal of BUYER) expect(event.payload, personal).not.toContain(personal);
        // What the ledger reads is still there.
        expect(JSON.parse(event.payload)).toMatchObject({
          line_items: expect.any(Array),
          note_attributes: [{ name: 'ref', value: 'ABC123' }],
        });
      }
    } finally {
      await app.close();
    }
    // A later start finds nothing left.
    expect(await reduceStoredPayloads(database.db)).toBe(0);
  });

  it('shares a backlog between processes that start together, each event reduced once', async () => {
    await storeWhole(450, 7_700_000_001_001);
    const counts = await Promise.all([reduceStoredPayloads(database.db), reduceStoredPayloads(database.db)]);
    expect(counts[0]! + counts[1]!).toBe(450);
    const [left] = await sqlRows<{ n: number }>(database.db, sql`select count(*)::int as n from webhook_events where not payload_reduced`);
    expect(left!.n).toBe(0);
  });
});
