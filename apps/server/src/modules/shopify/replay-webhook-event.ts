import type { TWebhookReplayResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { writeAudit } from '../audit/write-audit.js';
import { loadWebhookEvent } from './list-webhook-events.js';
import { maskContactsInText } from './mask-personal-data.js';
import { processWebhookEvent } from './webhook-events.js';

/**
 * 'Kör igen' (`POST /api/admin/webhooks/{id}/replay`): a stored event that has not been processed
 * goes through the receiver's own processing, in one transaction with its audit entry. Idempotent:
 * an event already processed (by an earlier replay, a redelivery from Shopify or the CLI) is not
 * processed again, so nothing changes and nothing is audited; of two replays at the same moment
 * only the first to mark the event processed commits (processWebhookEvent).
 */
export async function replayWebhookEvent(
  db: Db,
  options: { eventId: number; actorUserId: number; defaultCommissionBps: number },
): Promise<TWebhookReplayResponse> {
  const before = await loadWebhookEvent(db, options.eventId); // 404 for an event that does not exist
  const result = await processWebhookEvent(db, {
    eventId: options.eventId,
    defaultCommissionBps: options.defaultCommissionBps,
    alsoInTransaction: (tx) =>
      writeAudit(tx, {
        actorUserId: options.actorUserId,
        action: 'webhook.replay',
        targetType: 'webhook_event',
        targetId: options.eventId,
        details: { topic: before.topic, webhook_id: before.webhook_id },
      }),
  });
  const event = await loadWebhookEvent(db, options.eventId);
  switch (result.status) {
    case 'processed':
      return { ok: true, result: 'processed', message: `Händelsen behandlades: ${event.outcome ?? ''}`.trim(), event };
    case 'already_processed':
      return { ok: true, result: 'already_processed', message: 'Händelsen var redan behandlad: inget ändrades.', event };
    case 'failed':
      return { ok: true, result: 'failed', message: `Händelsen kunde inte behandlas: ${maskContactsInText(result.error)}`, event };
  }
}
