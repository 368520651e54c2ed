import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable, type Db } from '../../db/client.js';
import { AppError, databaseUnavailable } from '../../errors.js';
import { recordWebhookDelivery, type WebhookOutcome } from '../../lib/metrics.js';
import { parseShopifyJson } from '../../lib/shopify-json.js';
import { shopifyOrderIdOf } from '../../lib/shopify-payloads.js';
import { isHandledTopic, processWebhookEvent, storeWebhookEvent, type ProcessResult } from './webhook-events.js';
import { isValidShopifySignature } from './webhook-signature.js';
import { reduceShopifyPayload } from './reduce-payload.js';

/**
 * A delivery is answered within this time (issue 34 point 3): a 503 when it could not be stored and
 * processed by then (a silent line to the database). Shopify then delivers it again with the same
 * webhook id, which finds the event stored, and processes it, or answers 'Redan mottagen' if this
 * attempt got there after all. Under Shopify's own 5 s.
 */
export const WEBHOOK_ANSWER_MS = 4_000;

export interface ShopifyDelivery {
  body: Buffer;
  hmac: string | undefined;
  topic: string | undefined;
  webhookId: string | undefined;
  shopDomain: string | undefined;
  /** X-Shopify-Triggered-At: when Shopify fired the event (for the lag in the metrics only). */
  triggeredAt?: string | undefined;
}

/**
 * One delivery from Shopify: signature first (nothing unsigned is stored), then the event is
 * stored, then processed. Once stored the answer is 200 even if processing fails: the event is
 * ours to replay, and a subscription whose deliveries keep failing may be removed by Shopify.
 * Until it is stored, a failure (the database unreachable) is a 503, so that Shopify retries; so
 * is a stored event whose processing met the database away or too slow (decision 021).
 */
export async function receiveShopifyWebhook(
  db: Db,
  delivery: ShopifyDelivery,
  options: { secret: string | undefined; defaultCommissionBps: number; log: FastifyBaseLogger; answerWithinMs?: number },
) {
  const started = performance.now();
  const count = (outcome: WebhookOutcome) =>
    recordWebhookDelivery({
      topic: delivery.topic?.trim(),
      outcome,
      seconds: (performance.now() - started) / 1000,
      triggeredAt: delivery.triggeredAt,
    });
  const work = receive(db, delivery, options);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(databaseUnavailable()), options.answerWithinMs ?? WEBHOOK_ANSWER_MS);
  });
  // What the attempt still does after its answer has gone is its own: stored or not, the redelivery settles it.
  work.catch(() => undefined);
  try {
    const { receipt, outcome } = await Promise.race([work, late]);
    count(outcome);
    return receipt;
  } catch (error) {
    // A refusal (4xx, or 503 without a secret) stores nothing; anything else is the database failing.
    count(error instanceof AppError ? 'refused' : 'error');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function receive(
  db: Db,
  delivery: ShopifyDelivery,
  options: { secret: string | undefined; defaultCommissionBps: number; log: FastifyBaseLogger },
) {
  if (!options.secret) {
    throw new AppError('NOT_CONFIGURED', 'Shopify-kopplingen är inte konfigurerad: SHOPIFY_WEBHOOK_SECRET saknas på servern.');
  }
  if (!isValidShopifySignature(delivery.body, delivery.hmac, options.secret)) {
    throw new AppError('INVALID_SIGNATURE', 'Ogiltig signatur: begäran kommer inte från butiken.');
  }
  const text = delivery.body.toString('utf8');
  let payload: unknown;
  try {
    payload = parseShopifyJson(text);
  } catch {
    throw new AppError('INVALID_JSON', 'Webhooken innehåller inte giltig JSON.');
  }
  const topic = delivery.topic?.trim();
  const webhookId = delivery.webhookId?.trim();
  if (!topic) throw new AppError('BAD_REQUEST', 'Rubriken X-Shopify-Topic saknas.');
  if (!webhookId) throw new AppError('BAD_REQUEST', 'Rubriken X-Shopify-Webhook-Id saknas.');

  // Only what the ledger reads is stored, never the buyer (issue 22, decision 035); processing reads
  // the same reduced payload, so a replay of the stored text does exactly what this delivery does.
  // JSON.stringify escapes every control character (NUL as the six characters `\u0000`) and every
  // lone surrogate, so the text is always storable. What the payload's strings hold is cleaned where
  // it is read (shopify-payloads.ts), never here.
  const shopifyOrderId = shopifyOrderIdOf(topic, payload);
  payload = reduceShopifyPayload(topic, payload);
  const event = await storeWebhookEvent(db, {
    webhookId,
    topic,
    shopDomain: delivery.shopDomain?.trim() || null,
    payload: JSON.stringify(payload),
    shopifyOrderId,
  });
  if (event.processed) {
    return {
      receipt: { ok: true as const, event_id: event.id, outcome: `Redan mottagen: ${event.outcome ?? ''}`.trim() },
      outcome: 'duplicate' as const,
    };
  }
  options.log.info({ webhookEventId: event.id, topic, webhookId }, 'webhook sparad');

  const result = await processWebhookEvent(db, {
    eventId: event.id,
    defaultCommissionBps: options.defaultCommissionBps,
    // Just stored from this very text: no need to read it back. A redelivery of an event stored
    // earlier is processed from the row.
    delivered: event.inserted ? { topic, receivedAt: event.inserted.receivedAt, payload } : undefined,
  }).catch((error: unknown): ProcessResult => ({
    status: 'failed',
    error: error instanceof Error ? error.message : String(error),
    transient: isDatabaseUnavailable(error),
  }));
  if (result.status === 'failed' && result.transient) {
    // Stored, but the database went away or was too slow to process it: a 503 has Shopify deliver
    // it again, and the redelivery processes the stored event (decision 021). Not a 200: nothing
    // else would ever process it without an operator running replay-webhooks.
    options.log.warn(
      { webhookEventId: event.id, topic, error: result.error },
      'webhook sparad, databasen svarar inte: 503 så att Shopify skickar igen',
    );
    throw databaseUnavailable();
  }
  if (result.status === 'failed') {
    options.log.error({ webhookEventId: event.id, topic, error: result.error }, 'webhook sparad men kunde inte behandlas');
    // The cause stays in the log and in webhook_events.last_error, not in an answer that leaves the server.
    return {
      receipt: { ok: true as const, event_id: event.id, outcome: 'Sparad men kunde inte behandlas: spelas upp igen med replay-webhooks' },
      outcome: 'failed' as const,
    };
  }
  options.log.info({ webhookEventId: event.id, topic, outcome: result.outcome }, 'webhook behandlad');
  return {
    receipt: {
      ok: true as const,
      event_id: event.id,
      outcome: result.status === 'already_processed' ? `Redan mottagen: ${result.outcome}` : result.outcome,
    },
    outcome:
      result.status === 'already_processed'
        ? ('duplicate' as const)
        : isHandledTopic(topic)
          ? ('processed' as const)
          : ('ignored' as const),
  };
}
