import { z } from 'zod';
import { ZIdParamSchema, ZSekSchema, ZSingleLineTextSchema, idSchema, integerFromText } from './common.js';
import { TEXT_LIMITS } from './field-limits.js';

/**
 * A Shopify id (order, line, product) in an answer: a string of digits, never a number. Shopify's
 * ids are 64-bit, and as a JavaScript number 820982911946154508 and 820982911946154509 both read
 * 820982911946154500.
 */
export const ZShopifyIdSchema = z.string().regex(/^\d{1,19}$/, 'Shopify-id ska vara en sträng av siffror');

/** What `POST /api/webhooks/shopify` answers Shopify once the event is stored (and, normally, processed). */
export const ZShopifyWebhookReceiptSchema = z.object({
  ok: z.literal(true),
  event_id: z.number(),
  /** What processing did, in Swedish; Shopify ignores it, an operator reading logs does not. */
  outcome: z.string(),
});
export type TShopifyWebhookReceipt = z.infer<typeof ZShopifyWebhookReceiptSchema>;

export const ZUnattributedOrdersQuerySchema = z.object({
  page: z.preprocess(
    integerFromText,
    z.number({ error: 'Ange sidan som ett tal' }).int('Ange sidan som ett heltal').min(1, 'Sidan måste vara minst 1').default(1),
  ),
  page_size: z.preprocess(
    integerFromText,
    z
      .number({ error: 'Ange sidstorleken som ett tal' })
      .int('Ange sidstorleken som ett heltal')
      .min(1, 'Sidstorleken måste vara minst 1')
      .max(200, 'Högst 200 ordrar per sida')
      .default(50),
  ),
});
export type TUnattributedOrdersQuery = z.infer<typeof ZUnattributedOrdersQuerySchema>;

/** An order no personal link code could be matched to (spec §3 seller order, plus the code it carried). */
export const ZUnattributedOrderSchema = z.object({
  order_id: z.number(),
  shopify_order_id: ZShopifyIdSchema,
  order_name: z.string().nullable(),
  ordered_at: z.string(),
  subtotal_incl_vat: ZSekSchema,
  commission_total: ZSekSchema,
  /** Shopify's financial status, or `cancelled`. */
  state: z.string(),
  /** The code the order carried that matched no seller, if it carried one. */
  ref_code: z.string().nullable(),
  /**
   * When `ref_code` is the personal link of a seller in an archived group: whose it was. Such an
   * order waits here for the superadmin instead of changing the group's final figures (decision 027).
   */
  archived_link: z.object({ membership_id: z.number(), seller_name: z.string(), group_id: z.number(), group_name: z.string() }).nullable(),
});
export type TUnattributedOrder = z.infer<typeof ZUnattributedOrderSchema>;

/** Newest first, paged on the server; `total` counts every unattributed order. */
export const ZUnattributedOrdersResponseSchema = z.object({
  items: z.array(ZUnattributedOrderSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type TUnattributedOrdersResponse = z.infer<typeof ZUnattributedOrdersResponseSchema>;

export const ZAssignOrderParamsSchema = z.object({ id: ZIdParamSchema });

export const ORDER_ALREADY_ASSIGNED_MESSAGE = 'Ordern har redan tilldelats en säljare';

/**
 * `only_if_unattributed`: assign the order only while it has no seller (the list of unattributed
 * orders sends it, so a list another admin has already worked through cannot move an order a
 * second time). Without it an attributed order moves to the given seller.
 */
export const ZAssignOrderRequestSchema = z.object({
  membership_id: idSchema('Välj en säljare'),
  only_if_unattributed: z.boolean({ error: 'only_if_unattributed ska vara true eller false' }).optional(),
});
export type TAssignOrderRequest = z.infer<typeof ZAssignOrderRequestSchema>;

export const ZAssignOrderResponseSchema = z.object({
  ok: z.literal(true),
  order: z.object({
    order_id: z.number(),
    membership_id: z.number(),
    group_id: z.number(),
    seller_name: z.string(),
    group_name: z.string(),
  }),
});
export type TAssignOrderResponse = z.infer<typeof ZAssignOrderResponseSchema>;

// ---------------------------------------------------------------- a class's orders, and moving a sale

/** The class's orders for its teacher (issue 30 point 5), newest first, a page at a time. */
export const ZClassOrdersQuerySchema = ZUnattributedOrdersQuerySchema.extend({ group_id: idSchema('Ogiltig grupp', 'Grupp krävs') });
export type TClassOrdersQuery = z.infer<typeof ZClassOrdersQuerySchema>;

export const ZClassOrderSchema = z.object({
  order_id: z.number(),
  order_name: z.string().nullable(),
  ordered_at: z.string(),
  /** The pupil it counts for: the membership and the name the teacher knows them by. */
  membership_id: z.number().nullable(),
  seller_name: z.string().nullable(),
  subtotal_incl_vat: ZSekSchema,
  commission_total: ZSekSchema,
  state: z.string(),
  /** A line of it is in a payout: the teacher can no longer move it; the superadmin moves it by a correction. */
  in_payout: z.boolean(),
});
export type TClassOrder = z.infer<typeof ZClassOrderSchema>;

export const ZClassOrdersResponseSchema = z.object({
  items: z.array(ZClassOrderSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type TClassOrdersResponse = z.infer<typeof ZClassOrdersResponseSchema>;

export const MOVE_REASON_REQUIRED = 'Skriv varför försäljningen flyttas';

/** `POST /api/group/orders/{id}/move`: to another pupil of the order's group, with the reason, which the audit log keeps. */
export const ZMoveOrderRequestSchema = z.object({
  to_membership_id: idSchema('Välj eleven som sålde', 'Välj eleven som sålde'),
  reason: ZSingleLineTextSchema(MOVE_REASON_REQUIRED)
    .trim()
    .min(3, `${MOVE_REASON_REQUIRED} (minst 3 tecken)`)
    .max(TEXT_LIMITS.reason, `Skälet får vara högst ${TEXT_LIMITS.reason} tecken`),
});
export type TMoveOrderRequest = z.infer<typeof ZMoveOrderRequestSchema>;

export const ZMoveOrderResponseSchema = z.object({
  ok: z.literal(true),
  order: z.object({
    order_id: z.number(),
    membership_id: z.number(),
    seller_name: z.string(),
    /**
     * The order was in a payout already: it moved by correction lines (taken from the pupil it
     * counted for, given to the new one) that the group's next payout settles (decision 067).
     */
    by_correction: z.boolean(),
  }),
});
export type TMoveOrderResponse = z.infer<typeof ZMoveOrderResponseSchema>;
