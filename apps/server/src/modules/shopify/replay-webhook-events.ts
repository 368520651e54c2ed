import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { webhookEvents } from '../../db/schema.js';
import { processWebhookEvent, type ProcessResult } from './webhook-events.js';

const BATCH = 100;

/**
 * Processes stored events again: by default every one not yet processed (it failed, or the
 * process died before it finished), oldest first; with `eventId`, that one event even if it was
 * processed (safe: every use case is idempotent). Reports each event as it goes.
 */
export async function replayWebhookEvents(
  db: Db,
  options: { defaultCommissionBps: number; eventId?: number; report(event: { id: number; topic: string }, result: ProcessResult): void },
): Promise<{ processed: number; failed: number }> {
  const totals = { processed: 0, failed: 0 };
  const replay = async (event: { id: number; topic: string }, again: boolean) => {
    const result = await processWebhookEvent(db, { eventId: event.id, defaultCommissionBps: options.defaultCommissionBps, again });
    options.report(event, result);
    if (result.status === 'failed') totals.failed++;
    else totals.processed++;
  };

  if (options.eventId !== undefined) {
    const [event] = await db
      .select({ id: webhookEvents.id, topic: webhookEvents.topic })
      .from(webhookEvents)
      .where(eq(webhookEvents.id, options.eventId));
    if (event) await replay(event, true);
    return totals;
  }
  // Keyset pages by id: events that fail again stay unprocessed and must not be fetched twice.
  let afterId = 0;
  for (;;) {
    const events = await db
      .select({ id: webhookEvents.id, topic: webhookEvents.topic })
      .from(webhookEvents)
      .where(and(isNull(webhookEvents.processedAt), gt(webhookEvents.id, afterId)))
      .orderBy(asc(webhookEvents.id))
      .limit(BATCH);
    for (const event of events) await replay(event, false);
    if (events.length < BATCH) return totals;
    afterId = events[events.length - 1]!.id;
  }
}
