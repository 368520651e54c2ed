import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { prepared } from '../../db/prepared.js';
import { webhookEvents } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { recordShopifyOrder } from '../orders/record-shopify-order.js';
import { recordShopifyRefund } from '../orders/record-shopify-refund.js';
import { parseShopifyJson } from './shopify-json.js';
import { ZShopifyDeletedProductSchema, ZShopifyOrderSchema, ZShopifyProductSchema, ZShopifyRefundSchema } from './shopify-payloads.js';
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
      // A decimal string, exact beyond 2^53.
      shopifyOrderId: sql`${sql.placeholder('shopifyOrderId')}::bigint`,
    })
    .onConflictDoNothing({ target: webhookEvents.webhookId })
    .returning({ id: webhookEvents.id })
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
): Promise<{ id: number; processed: boolean; outcome: string | null; inserted: boolean }> {
  const [inserted] = await insertWebhookEvent(db).execute(options);
  if (inserted) return { id: inserted.id, processed: false, outcome: null, inserted: true };
  const [existing] = await db
    .select({ id: webhookEvents.id, processedAt: webhookEvents.processedAt, outcome: webhookEvents.outcome })
    .from(webhookEvents)
    .where(eq(webhookEvents.webhookId, options.webhookId));
  if (!existing) throw new Error(`webhook ${options.webhookId} finns varken som ny eller sparad`);
  return { id: existing.id, processed: existing.processedAt !== null, outcome: existing.outcome, inserted: false };
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

async function applyEvent(
  tx: Tx,
  event: { id: number; topic: string; payload: unknown; receivedAt: Date },
  defaultCommissionBps: number,
): Promise<string> {
  const { payload } = event;
  switch (event.topic) {
    case 'orders/create':
    case 'orders/updated':
    case 'orders/paid':
    case 'orders/cancelled': {
      const order = readPayload(ZShopifyOrderSchema, event.topic, payload);
      // Test orders (Shopify's "send test notification", the Bogus gateway) earn no one commission.
      if (order.test) return `Testorder ${order.name ?? order.id}: räknas inte`;
      return recordShopifyOrder(tx, { order, sourceEventId: event.id, defaultCommissionBps });
    }
    case 'refunds/create':
      return recordShopifyRefund(tx, { refund: readPayload(ZShopifyRefundSchema, event.topic, payload) });
    case 'products/create':
    case 'products/update':
      return syncShopProduct(tx, readPayload(ZShopifyProductSchema, event.topic, payload));
    case 'products/delete':
      return removeShopProduct(tx, {
        shopifyProductId: readPayload(ZShopifyDeletedProductSchema, event.topic, payload).id,
        deletedAt: event.receivedAt,
      });
    default:
      return `Ämnet ${event.topic} hanteras inte: sparat men ignorerat`;
  }
}

export type ProcessResult = { status: 'processed' | 'already_processed'; outcome: string } | { status: 'failed'; error: string };

/**
 * Processes one stored event in one transaction: its effects and its `processed_at` commit
 * together or not at all, which is what makes a redelivery after a crash count exactly once.
 * The event row's lock makes two deliveries of the same webhook at once wait for each other.
 * With `again`, an event already processed is processed once more (safe: see recordShopifyOrder).
 * `delivered` is the payload of an event stored a moment ago, already parsed: it is then not
 * read back from the row (the text is the same bytes).
 */
export async function processWebhookEvent(
  db: Db,
  options: { eventId: number; defaultCommissionBps: number; again?: boolean; delivered?: { payload: unknown } },
): Promise<ProcessResult> {
  try {
    return await db.transaction(async (tx) => {
      const [event] = await tx
        .select({
          topic: webhookEvents.topic,
          ...(options.delivered ? {} : { payload: webhookEvents.payload }),
          receivedAt: webhookEvents.receivedAt,
          processedAt: webhookEvents.processedAt,
          outcome: webhookEvents.outcome,
        })
        .from(webhookEvents)
        .where(eq(webhookEvents.id, options.eventId))
        .for('update');
      if (!event) throw new AppError('NOT_FOUND', `Händelse ${options.eventId} finns inte`);
      if (event.processedAt && !options.again) return { status: 'already_processed' as const, outcome: event.outcome ?? '' };
      const payload = options.delivered ? options.delivered.payload : parseShopifyJson((event as { payload: string }).payload);
      const outcome = await applyEvent(tx, { ...event, id: options.eventId, payload }, options.defaultCommissionBps);
      await tx
        .update(webhookEvents)
        .set({ processedAt: new Date(), attempts: sql`${webhookEvents.attempts} + 1`, lastError: null, outcome })
        .where(eq(webhookEvents.id, options.eventId));
      return { status: 'processed' as const, outcome };
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db
      .update(webhookEvents)
      .set({ attempts: sql`${webhookEvents.attempts} + 1`, lastError: message.slice(0, 2000) })
      .where(eq(webhookEvents.id, options.eventId));
    return { status: 'failed', error: message };
  }
}
