import { sql } from 'drizzle-orm';
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
