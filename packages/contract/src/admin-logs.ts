import { z } from 'zod';
import { ZIdParamSchema, integerFromText } from './common.js';
import { ZShopifyIdSchema } from './orders.js';

/** An HTML form sends an empty field as ''; it means "not given", as a missing one does. */
const emptyAsMissing = (value: unknown) => (value === '' || value === null ? undefined : value);

const ZPageSchema = z.preprocess(
  integerFromText,
  z.number({ error: 'Ange sidan som ett tal' }).int('Ange sidan som ett heltal').min(1, 'Sidan måste vara minst 1').default(1),
);
const ZPageSizeSchema = z.preprocess(
  integerFromText,
  z
    .number({ error: 'Ange sidstorleken som ett tal' })
    .int('Ange sidstorleken som ett heltal')
    .min(1, 'Sidstorleken måste vara minst 1')
    .max(200, 'Högst 200 rader per sida')
    .default(50),
);

// ---------------------------------------------------------------------------------------------
// 'Webbhookar' (issue 21): the superadmin's view of stored Shopify webhook events.

/**
 * `processed`: processing counted it; `ignored`: processed, but it counts for nothing (a topic the
 * portal does not handle, a test order); `failed`: stored but not processed (it failed, or the
 * process stopped before it was done), waiting for 'Kör igen'.
 */
export const ZWebhookEventStatusSchema = z.enum(['processed', 'ignored', 'failed'], { error: 'Okänd status' });
export type TWebhookEventStatus = z.infer<typeof ZWebhookEventStatusSchema>;

export const ZWebhookEventsQuerySchema = z.object({
  status: z.preprocess(emptyAsMissing, ZWebhookEventStatusSchema.optional()),
  page: ZPageSchema,
  page_size: ZPageSizeSchema,
});
export type TWebhookEventsQuery = z.infer<typeof ZWebhookEventsQuerySchema>;

/** One stored event. `outcome` and `error` have every e-mail address and phone number masked. */
export const ZWebhookEventSchema = z.object({
  id: z.number(),
  webhook_id: z.string(),
  topic: z.string(),
  shop_domain: z.string().nullable(),
  status: ZWebhookEventStatusSchema,
  received_at: z.string(),
  processed_at: z.string().nullable(),
  attempts: z.number().int(),
  /** What processing did, in Swedish. */
  outcome: z.string().nullable(),
  /** Why the last attempt failed; null once processed. */
  error: z.string().nullable(),
  shopify_order_id: ZShopifyIdSchema.nullable(),
});
export type TWebhookEvent = z.infer<typeof ZWebhookEventSchema>;

/** Newest first, one page at a time; `counts` are the totals of each status, whatever the filter. */
export const ZWebhookEventsResponseSchema = z.object({
  items: z.array(ZWebhookEventSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  counts: z.object({ processed: z.number().int(), ignored: z.number().int(), failed: z.number().int() }),
});
export type TWebhookEventsResponse = z.infer<typeof ZWebhookEventsResponseSchema>;

export const ZWebhookEventParamsSchema = z.object({ id: ZIdParamSchema });

/** One event with what Shopify sent, buyers' names, addresses, e-mail addresses and phones masked. */
export const ZWebhookEventDetailSchema = ZWebhookEventSchema.extend({ payload: z.unknown() });
export type TWebhookEventDetail = z.infer<typeof ZWebhookEventDetailSchema>;

/**
 * `POST /api/admin/webhooks/{id}/replay`. `processed`: this replay processed it; `already_processed`:
 * it had been processed before, nothing changed; `failed`: it failed again, `message` says why.
 */
export const ZWebhookReplayResponseSchema = z.object({
  ok: z.literal(true),
  result: z.enum(['processed', 'already_processed', 'failed']),
  message: z.string(),
  event: ZWebhookEventSchema,
});
export type TWebhookReplayResponse = z.infer<typeof ZWebhookReplayResponseSchema>;

// ---------------------------------------------------------------------------------------------
// 'Händelselogg' (issue 21): the audit entries of admin actions.

/** An action as writeAudit records it: a dotted verb, `group.create`, `payout.mark_paid`. */
export const ZAuditActionSchema = z
  .string({ error: 'Ogiltig händelse' })
  .trim()
  .max(60, 'Ogiltig händelse')
  .regex(/^[a-z_]+(\.[a-z_]+)*$/, 'Ogiltig händelse');

export const ZAuditQuerySchema = z.object({
  action: z.preprocess(emptyAsMissing, ZAuditActionSchema.optional()),
  page: ZPageSchema,
  page_size: ZPageSizeSchema,
});
export type TAuditQuery = z.infer<typeof ZAuditQuerySchema>;

/** One audit entry: who did what, to which group or person, when. */
export const ZAuditEntrySchema = z.object({
  id: z.number(),
  action: z.string(),
  created_at: z.string(),
  /** Null when the system did it, or the person has since been erased. */
  actor: z.object({ id: z.number(), full_name: z.string(), email: z.string() }).nullable(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  /** The group the action was about (a payout's or an order's group too), while it exists. */
  group: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** The person the action was about (added to a group, made admin), while they exist. */
  user: z.object({ id: z.number(), full_name: z.string() }).nullable(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntrySchema>;

/** Newest first, one page at a time; `actions` are every action the log holds, for the filter. */
export const ZAuditResponseSchema = z.object({
  items: z.array(ZAuditEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  actions: z.array(z.string()),
});
export type TAuditResponse = z.infer<typeof ZAuditResponseSchema>;
