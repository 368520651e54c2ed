import { eq, sql } from 'drizzle-orm';
import { isDatabaseUnavailable, type Db, type Tx } from '../../db/client.js';
import { prepared, transactionStatement } from '../../db/prepared.js';
import { webhookEvents } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { toStorableText } from '../../lib/storable-text.js';
import { recordShopifyOrder, type DeliveryFinish } from '../orders/record-shopify-order.js';
import { recordShopifyRefund } from '../orders/record-shopify-refund.js';
import { parseShopifyJson } from '../../lib/shopify-json.js';
import {
  HANDLED_TOPICS,
  ZShopifyDeletedProductSchema,
  ZShopifyOrderSchema,
  ZShopifyProductSchema,
  ZShopifyRefundSchema,
} from '../../lib/shopify-payloads.js';
import { removeShopProduct, syncShopProduct } from './sync-shop-product.js';
import type { z } from 'zod';

/** Every delivery's first statement, prepared once. */
const insertWebhookEvent = prepared((db) =>
  db
    .insert(webhookEvents)
    .values({
      webhookId: sql.placeholder('webhookId'),
      topic: sql.placeholder('topic'),
      shopDomain: sql.placeholder('shopDomain'),
      payload: sql.placeholder('payload'),
      // Reduced by the caller (reduce-payload.ts): the retention job has nothing left to do with it.
      payloadReduced: true,
      // A decimal string, exact beyond 2^53.
      shopifyOrderId: sql`${sql.placeholder('shopifyOrderId')}::bigint`,
    })
    .onConflictDoNothing({ target: webhookEvents.webhookId })
    .returning({ id: webhookEvents.id, receivedAt: webhookEvents.receivedAt })
    .prepare('insert_webhook_event'),
);

/**
 * Keeps a delivery before anything is done with it, so that nothing Shopify sent is lost if
 * processing fails or the process dies: the same webhook id is stored once, however often it
 * comes. Returns the stored event and whether it was processed already.
 */
export async function storeWebhookEvent(
  db: Db,
  options: { webhookId: string; topic: string; shopDomain: string | null; payload: string; shopifyOrderId: string | null },
): Promise<{ id: number; processed: boolean; outcome: string | null; inserted: { receivedAt: Date } | undefined }> {
  const [inserted] = await insertWebhookEvent(db).execute(options);
  if (inserted) return { id: inserted.id, processed: false, outcome: null, inserted: { receivedAt: inserted.receivedAt } };
  const [existing] = await db
    .select({ id: webhookEvents.id, processedAt: webhookEvents.processedAt, outcome: webhookEvents.outcome })
    .from(webhookEvents)
    .where(eq(webhookEvents.webhookId, options.webhookId));
  if (!existing) throw new Error(`webhook ${options.webhookId} finns varken som ny eller sparad`);
  return { id: existing.id, processed: existing.processedAt !== null, outcome: existing.outcome, inserted: undefined };
}

function readPayload<T extends z.ZodType>(schema: T, topic: string, payload: unknown): z.infer<T> {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError(
    'VALIDATION',
    `Oväntat innehåll i ${topic}: ${issue?.path.join('.') || 'innehållet'}: ${issue?.message ?? 'ogiltigt'}`,
  );
}

const handledTopics: ReadonlySet<string> = new Set(HANDLED_TOPICS);
export const isHandledTopic = (topic: string) => handledTopics.has(topic);

/** How the outcome of a test order begins: processed, but it counts for nobody (the webhook viewer's "ignored"). */
export const TEST_ORDER_OUTCOME_PREFIX = 'Testorder ';

async function applyEvent(
  tx: Tx,
  event: { id: number; topic: string; payload: unknown; receivedAt: Date },
  defaultCommissionBps: number,
  finish: DeliveryFinish,
): Promise<{ outcome: string; finished?: number }> {
  const { payload } = event;
  switch (event.topic) {
    case 'orders/create':
    case 'orders/updated':
    case 'orders/paid':
    case 'orders/cancelled': {
      const order = readPayload(ZShopifyOrderSchema, event.topic, payload);
      // Test orders (Shopify's "send test notification", the Bogus gateway) earn no one commission.
      if (order.test) return { outcome: `${TEST_ORDER_OUTCOME_PREFIX}${order.name ?? order.id}: räknas inte` };
      return recordShopifyOrder(tx, { order, sourceEventId: event.id, defaultCommissionBps, finish });
    }
    case 'refunds/create':
      return { outcome: await recordShopifyRefund(tx, { refund: readPayload(ZShopifyRefundSchema, event.topic, payload) }) };
    case 'products/create':
    case 'products/update':
      return { outcome: await syncShopProduct(tx, readPayload(ZShopifyProductSchema, event.topic, payload)) };
    case 'products/delete':
      return {
        outcome: await removeShopProduct(tx, {
          shopifyProductId: readPayload(ZShopifyDeletedProductSchema, event.topic, payload).id,
          deletedAt: event.receivedAt,
        }),
      };
    default:
      return { outcome: `Ämnet ${event.topic} hanteras inte: sparat men ignorerat` };
  }
}

/** `transient`: the database was away or too slow (decision 021), so the same event may well succeed on a redelivery. */
export type ProcessResult =
  { status: 'processed' | 'already_processed'; outcome: string } | { status: 'failed'; error: string; transient?: boolean };

/**
 * Marks an event processed with its outcome, unless another delivery of it did so first (with
 * `again`, in any case). Sent alone, or with a new order's lines (DeliveryFinish).
 */
const MARK_PROCESSED = 'mark_webhook_event_processed';
const markProcessedSql = sql`update ${webhookEvents}
  set processed_at = now(), attempts = attempts + 1, last_error = null, outcome = ${sql.placeholder('outcome')}::text
  where id = ${sql.placeholder('eventId')}::bigint and (${sql.placeholder('again')}::boolean or processed_at is null)
  returning id`;
const markProcessed = transactionStatement<{ id: string }>(MARK_PROCESSED, markProcessedSql);

/** Another delivery of the same event committed its processing first: this one's work is rolled back. */
class ProcessedMeanwhile extends Error {}

/**
 * Processes one stored event in one transaction: its effects and its `processed_at` commit
 * together or not at all, which is what makes a redelivery after a crash count exactly once.
 * Two deliveries of one webhook at the same moment may both do the work (every effect is
 * idempotent and serialised by the order's lock), but only the first to mark the event processed
 * commits: the other finds `processed_at` set when it comes to mark it, and rolls back. The event
 * row is locked only by that last statement, after the order's lock, always in that order. A new
 * order sends the marking with its lines, in one statement (DeliveryFinish, decision 046).
 * With `again`, an event already processed is processed once more (safe: see recordShopifyOrder).
 * `delivered` is an event stored a moment ago, with its payload already parsed: nothing is then
 * read back from the row (the text is the same bytes).
 */
export async function processWebhookEvent(
  db: Db,
  options: {
    eventId: number;
    defaultCommissionBps: number;
    again?: boolean;
    delivered?: { topic: string; receivedAt: Date; payload: unknown };
    /** More work for the same transaction once the event is marked processed (the replay's audit entry). */
    alsoInTransaction?: (tx: Tx) => Promise<void>;
  },
): Promise<ProcessResult> {
  try {
    return await db.transaction(async (tx) => {
      let event = options.delivered;
      if (!event) {
        const stored = await storedEvent(tx, options.eventId);
        if (stored.processedOutcome !== undefined && !options.again)
          return { status: 'already_processed' as const, outcome: stored.processedOutcome };
        event = { ...stored, payload: parseShopifyJson(stored.payload) };
      }
      const markValues = (outcome: string) => ({
        eventId: options.eventId,
        outcome: toStorableText(outcome),
        again: options.again ?? false,
      });
      const applied = await applyEvent(tx, { ...event, id: options.eventId }, options.defaultCommissionBps, {
        name: MARK_PROCESSED,
        statement: markProcessedSql,
        values: markValues,
      });
      const outcome = toStorableText(applied.outcome);
      const marked = applied.finished ?? (await markProcessed(tx, markValues(applied.outcome))).length;
      if (marked === 0) throw new ProcessedMeanwhile();
      await options.alsoInTransaction?.(tx);
      return { status: 'processed' as const, outcome };
    });
  } catch (error) {
    if (error instanceof ProcessedMeanwhile) {
      const { processedOutcome } = await storedEvent(db, options.eventId);
      return { status: 'already_processed', outcome: processedOutcome ?? '' };
    }
    return {
      status: 'failed',
      error: await recordFailure(db, options.eventId, failureMessage(error)),
      transient: isDatabaseUnavailable(error),
    };
  }
}

/**
 * Why processing failed, in words for the operator: a failed query's own message names only the
 * query, so the database's reason (its cause) comes first, where a long query cannot push it out.
 */
function failureMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.cause.message}. ${error.message}` : error.message;
}

/**
 * Keeps why processing failed on the event, for the operator and `replay-webhooks`. The message
 * may quote what the shop sent (a database error lists its query's values), NUL included, so it
 * is made storable first: a failure that cannot be recorded would fail the delivery on every
 * retry. Should recording fail all the same (the database gone), the event stays unprocessed,
 * which replay finds too; the returned message then says so, for the log.
 */
async function recordFailure(db: Db, eventId: number, message: string): Promise<string> {
  try {
    await db
      .update(webhookEvents)
      .set({ attempts: sql`${webhookEvents.attempts} + 1`, lastError: toStorableText(message.slice(0, 2000)) })
      .where(eq(webhookEvents.id, eventId));
    return message;
  } catch (recordError) {
    return `${message} (felet kunde inte sparas: ${recordError instanceof Error ? recordError.message : String(recordError)})`;
  }
}

/** A stored event as processing needs it; `processedOutcome` is set once it has been processed. */
async function storedEvent(db: Db | Tx, eventId: number) {
  const [event] = await db
    .select({
      topic: webhookEvents.topic,
      payload: webhookEvents.payload,
      receivedAt: webhookEvents.receivedAt,
      processedAt: webhookEvents.processedAt,
      outcome: webhookEvents.outcome,
    })
    .from(webhookEvents)
    .where(eq(webhookEvents.id, eventId));
  if (!event) throw new AppError('NOT_FOUND', `Händelse ${eventId} finns inte`);
  return {
    topic: event.topic,
    receivedAt: event.receivedAt,
    payload: event.payload,
    processedOutcome: event.processedAt ? (event.outcome ?? '') : undefined,
  };
}
