/**
 * The parts of Shopify's webhook payloads (REST Admin API shapes, as in shared/fixtures/shopify)
 * that the portal reads. Unknown fields are dropped; a missing optional field is null or [].
 * Parse the body with `parseShopifyJson` first, so that 64-bit ids arrive as exact strings.
 * Every text the portal keeps comes out clean here, at the one door the shop's data comes in by.
 */
import { toSingleLineText } from '@saljportalen/contract';
import { z } from 'zod';

/** The topics processing acts on; any other is stored and ignored (Shopify may send what we did not ask for). */
export const HANDLED_TOPICS = [
  'orders/create',
  'orders/updated',
  'orders/paid',
  'orders/cancelled',
  'refunds/create',
  'products/create',
  'products/update',
  'products/delete',
] as const;

const BIGINT_MAX = 2n ** 63n - 1n;

/** A Shopify id as a decimal string: exact whatever its size, and what PostgreSQL's bigint takes. */
const ZShopifyId = z
  .union([z.string().regex(/^\d{1,19}$/), z.number().int().nonnegative()])
  .transform((id) => String(id))
  .refine((id) => BigInt(id) <= BIGINT_MAX, 'Id utanför intervallet');

/**
 * A name, title, code or address from the shop as one clean line: control characters (NUL, which
 * PostgreSQL cannot store, among them) become a space, so a stray one in the shop's admin neither
 * refuses the whole event nor travels on into CSV files, PDFs and logs (issue 15).
 */
const ZShopText = z.string().transform(toSingleLineText);

const ZShopifyTime = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

/** A money amount in the shop's currency ("149.00" or 149) as integer öre. */
const ZAmountOre = z.union([z.string(), z.number()]).transform((value, context) => {
  const ore = amountToOre(value);
  if (ore === null) {
    context.addIssue({ code: 'custom', message: `Ogiltigt belopp: ${String(value)}` });
    return z.NEVER;
  }
  return ore;
});

const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((items) => items ?? []);

/**
 * Decimal amount to öre without floating-point steps for strings; a third decimal rounds half
 * away from zero. Null when the value is not a plain decimal number.
 */
export function amountToOre(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.sign(value) * Math.round(Math.abs(value) * 100) : null;
  const match = /^\s*(-)?(\d+)(?:\.(\d*))?\s*$/.exec(value);
  if (!match) return null;
  const [, minus, whole, fraction = ''] = match;
  const digits = (fraction + '000').slice(0, 3);
  const ore = Number(whole) * 100 + Number(digits.slice(0, 2)) + (Number(digits[2]) >= 5 ? 1 : 0);
  return minus && ore !== 0 ? -ore : ore;
}

export const ZShopifyRefundSchema = z.object({
  id: ZShopifyId,
  order_id: ZShopifyId,
  created_at: ZShopifyTime.nullish(),
  processed_at: ZShopifyTime.nullish(),
  refund_line_items: list(
    z.object({
      id: ZShopifyId,
      line_item_id: ZShopifyId,
      quantity: z.number().int().nonnegative(),
    }),
  ),
});
export type TShopifyRefund = z.infer<typeof ZShopifyRefundSchema>;

export const ZShopifyLineItemSchema = z.object({
  id: ZShopifyId,
  product_id: ZShopifyId.nullish(),
  sku: ZShopText.nullish(),
  title: ZShopText.nullish(),
  name: ZShopText.nullish(),
  quantity: z.number().int().nonnegative(),
  /** Unit price before discounts, in the shop's currency; VAT included when the order says taxes_included. */
  price: ZAmountOre,
  gift_card: z.boolean().nullish(),
  /** Every discount on the line, order-level ones included as Shopify spreads them over the lines. */
  discount_allocations: list(z.object({ amount: ZAmountOre })),
  tax_lines: list(z.object({ price: ZAmountOre })),
});
export type TShopifyLineItem = z.infer<typeof ZShopifyLineItemSchema>;

export const ZShopifyOrderSchema = z.object({
  id: ZShopifyId,
  name: ZShopText.nullish(),
  created_at: ZShopifyTime,
  processed_at: ZShopifyTime.nullish(),
  updated_at: ZShopifyTime.nullish(),
  cancelled_at: ZShopifyTime.nullish(),
  financial_status: ZShopText.nullish(),
  currency: ZShopText.nullish(),
  taxes_included: z.boolean().nullish(),
  test: z.boolean().nullish(),
  note_attributes: list(z.object({ name: ZShopText, value: z.union([ZShopText, z.number()]).nullish() })),
  landing_site: ZShopText.nullish(),
  landing_site_ref: ZShopText.nullish(),
  discount_codes: list(z.object({ code: ZShopText })),
  line_items: z.array(ZShopifyLineItemSchema),
  refunds: list(ZShopifyRefundSchema),
});
export type TShopifyOrder = z.infer<typeof ZShopifyOrderSchema>;

export const ZShopifyProductSchema = z.object({
  id: ZShopifyId,
  title: ZShopText,
  /** HTML, many lines: made text (and storable) by htmlToPlainText. */
  body_html: z.string().nullish(),
  /** active, draft or archived. */
  status: ZShopText.nullish(),
  updated_at: ZShopifyTime.nullish(),
  variants: list(z.object({ sku: ZShopText.nullish(), price: ZAmountOre.nullish() })),
  image: z.object({ src: ZShopText }).nullish(),
  images: list(z.object({ src: ZShopText })),
});
export type TShopifyProduct = z.infer<typeof ZShopifyProductSchema>;

/** products/delete carries nothing but the id. */
export const ZShopifyDeletedProductSchema = z.object({ id: ZShopifyId });

/** The Shopify order an order or refund event is about, or null for other topics. */
export function shopifyOrderIdOf(topic: string, payload: unknown): string | null {
  const key = topic.startsWith('orders/') ? 'id' : topic.startsWith('refunds/') ? 'order_id' : null;
  if (!key || typeof payload !== 'object' || payload === null) return null;
  const parsed = ZShopifyId.safeParse((payload as Record<string, unknown>)[key]);
  return parsed.success ? parsed.data : null;
}
