import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/client.js';
import { parseShopifyJson } from '../../lib/shopify-json.js';
import { reduceShopifyPayload } from './reduce-payload.js';

/** Events reduced per transaction: a large backlog is worked through in steps, each committed. */
const PAYLOAD_BATCH = 200;

const rowsOf = async <T>(db: Pick<Db, 'execute'>, statement: ReturnType<typeof sql>): Promise<T[]> =>
  ((await db.execute(statement)) as unknown as { rows: T[] }).rows;

/**
 * Stored Shopify events whose payload was kept whole (stored before payloads were reduced at
 * receipt, or by an older process still running beside a new one), reduced now with the very
 * function that reduces at receipt (decision 035, 054). `payload_reduced` records each event as
 * done, and the partial index of migration 0013 finds the rest, so once nothing is left a call
 * costs one index probe. Processes that start together share the work: each batch is taken with
 * SKIP LOCKED, so none waits for another's.
 */
export async function reduceStoredPayloads(db: Db): Promise<number> {
  let reduced = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const batch = await rowsOf<{ id: number; topic: string; payload: string }>(
        tx,
        sql`select id, topic, payload from webhook_events where not payload_reduced
            order by id limit ${PAYLOAD_BATCH} for update skip locked`,
      );
      for (const event of batch) {
        let payload: unknown;
        try {
          payload = reduceShopifyPayload(event.topic, parseShopifyJson(event.payload));
        } catch {
          // Not JSON (never stored so by the webhook route): nothing of it can be read, so nothing is kept.
          payload = {};
        }
        await tx.execute(
          sql`update webhook_events set payload = ${JSON.stringify(payload)}, payload_reduced = true where id = ${event.id}`,
        );
      }
      return batch.length;
    });
    reduced += done;
    if (done < PAYLOAD_BATCH) return reduced;
  }
}

/**
 * At every start, before the server listens: what a migration would do if SQL could say it (decision
 * 054). The reduction is an allow-list walk with Shopify's 64-bit ids, the cart attribute `ref` read
 * as the ledger reads it and the landing page's `?ref=` parsed as a URL; a second version of it in
 * SQL would drift from the one that reduces at receipt. So it runs here, in JavaScript, once per
 * event: a buyer's data from before the upgrade is gone before the first request is served, not
 * at the first retention run (which may be a day away, or in no process at all).
 */
export const storedPayloadsPlugin = fp(
  async (app: FastifyInstance) => {
    const reduced = await reduceStoredPayloads(app.db);
    if (reduced > 0) app.log.info({ reduced }, 'lagrade Shopify-händelser rensade från köparens uppgifter (beslut 035, 054)');
  },
  { name: 'stored-payloads' },
);
