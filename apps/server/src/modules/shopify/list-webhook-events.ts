import { and, desc, eq, inArray, isNotNull, isNull, like, not, or, sql, type SQL } from 'drizzle-orm';
import type { TWebhookEvent, TWebhookEventDetail, TWebhookEventStatus, TWebhookEventsResponse } from '@saljportalen/contract';
import type { Db, Tx } from '../../db/client.js';
import { webhookEvents } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { parseShopifyJson } from '../../lib/shopify-json.js';
import { maskContactsInText, maskPersonalData } from './mask-personal-data.js';
import { HANDLED_TOPICS } from '../../lib/shopify-payloads.js';
import { TEST_ORDER_OUTCOME_PREFIX } from './webhook-events.js';

/**
 * An event processing acted on but that counts for nothing: a topic the portal does not handle, or
 * a test order. Read from what is stored, so events received before this view existed sort too.
 */
const ignored = or(not(inArray(webhookEvents.topic, [...HANDLED_TOPICS])), like(webhookEvents.outcome, `${TEST_ORDER_OUTCOME_PREFIX}%`))!;

const STATUS_WHERE: Record<TWebhookEventStatus, SQL> = {
  failed: isNull(webhookEvents.processedAt),
  ignored: and(isNotNull(webhookEvents.processedAt), ignored)!,
  processed: and(isNotNull(webhookEvents.processedAt), not(ignored))!,
};

const countWhere = (where: SQL) => sql<number>`count(*) filter (where ${where})`.mapWith(Number);

const eventColumns = {
  id: webhookEvents.id,
  webhookId: webhookEvents.webhookId,
  topic: webhookEvents.topic,
  shopDomain: webhookEvents.shopDomain,
  receivedAt: webhookEvents.receivedAt,
  processedAt: webhookEvents.processedAt,
  attempts: webhookEvents.attempts,
  outcome: webhookEvents.outcome,
  lastError: webhookEvents.lastError,
  shopifyOrderId: sql<string | null>`${webhookEvents.shopifyOrderId}::text`,
  ignored: sql<boolean>`coalesce(${ignored}, false)`,
};

interface EventRow {
  id: number;
  webhookId: string;
  topic: string;
  shopDomain: string | null;
  receivedAt: Date;
  processedAt: Date | null;
  attempts: number;
  outcome: string | null;
  lastError: string | null;
  shopifyOrderId: string | null;
  ignored: boolean;
}

/**
 * An event as the superadmin sees it. The recorded error and outcome may quote the shop's data (a
 * database error lists its query's values), so e-mail addresses and phone numbers in them are masked.
 */
function toAnswer(row: EventRow): TWebhookEvent {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    topic: row.topic,
    shop_domain: row.shopDomain,
    status: row.processedAt === null ? 'failed' : row.ignored ? 'ignored' : 'processed',
    received_at: row.receivedAt.toISOString(),
    processed_at: row.processedAt?.toISOString() ?? null,
    attempts: row.attempts,
    outcome: row.outcome === null ? null : maskContactsInText(row.outcome),
    error: row.processedAt === null ? maskContactsInText(row.lastError ?? 'Inte behandlad: inget fel sparades (processen avbröts).') : null,
    shopify_order_id: row.shopifyOrderId,
  };
}

/** Stored events newest first, one page at a time, optionally of one status (`GET /api/admin/webhooks`). */
export async function listWebhookEvents(
  db: Db,
  options: { status: TWebhookEventStatus | undefined; page: number; pageSize: number },
): Promise<TWebhookEventsResponse> {
  const where = options.status ? STATUS_WHERE[options.status] : undefined;
  const [rows, [counts]] = await Promise.all([
    db
      .select(eventColumns)
      .from(webhookEvents)
      .where(where)
      .orderBy(desc(webhookEvents.id))
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize),
    db
      .select({
        processed: countWhere(STATUS_WHERE.processed),
        ignored: countWhere(STATUS_WHERE.ignored),
        failed: countWhere(STATUS_WHERE.failed),
      })
      .from(webhookEvents),
  ]);
  const totals = { processed: Number(counts?.processed ?? 0), ignored: Number(counts?.ignored ?? 0), failed: Number(counts?.failed ?? 0) };
  return {
    items: rows.map(toAnswer),
    total: options.status ? totals[options.status] : totals.processed + totals.ignored + totals.failed,
    page: options.page,
    page_size: options.pageSize,
    counts: totals,
  };
}

/** One event as the list shows it; 404 when there is none. */
export async function loadWebhookEvent(db: Db | Tx, eventId: number): Promise<TWebhookEvent> {
  return toAnswer(await eventRow(db, eventId));
}

/** One event with what Shopify sent, buyers' personal data masked (`GET /api/admin/webhooks/{id}`). */
export async function loadWebhookEventDetail(db: Db, eventId: number): Promise<TWebhookEventDetail> {
  const [row] = await db.select({ payload: webhookEvents.payload }).from(webhookEvents).where(eq(webhookEvents.id, eventId));
  if (!row) throw notFound(eventId);
  let payload: unknown;
  try {
    payload = maskPersonalData(parseShopifyJson(row.payload));
  } catch {
    // Every stored body was JSON when it came; should one not be, nothing of it is shown.
    payload = null;
  }
  return { ...(await loadWebhookEvent(db, eventId)), payload };
}

async function eventRow(db: Db | Tx, eventId: number): Promise<EventRow> {
  const [row] = await db.select(eventColumns).from(webhookEvents).where(eq(webhookEvents.id, eventId));
  if (!row) throw notFound(eventId);
  return row;
}

const notFound = (eventId: number) => new AppError('NOT_FOUND', `Webbhändelse ${eventId} finns inte`);
