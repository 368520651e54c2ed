/**
 * Pure readings of a Shopify order: its sales lines and their amounts, the personal link codes
 * it carries, its state, and how much of a sale a refund or cancellation takes back.
 */
import type { TShopifyOrder } from '../../lib/shopify-payloads.js';

export interface SaleLineDraft {
  shopifyLineId: string;
  shopifyProductId: string | null;
  sku: string | null;
  title: string;
  quantity: number;
  /** What the customer paid for the line: incl. VAT, after every discount allocated to it. */
  amountOre: number;
}

/**
 * The commission base of each line (issue 6: incl. VAT after discounts). Gift cards are left
 * out: they are prepaid money, and the order that spends one earns its own commission.
 */
export function saleLinesOf(order: TShopifyOrder): SaleLineDraft[] {
  return order.line_items
    .filter((item) => !item.gift_card && item.quantity > 0)
    .map((item) => {
      const discountOre = item.discount_allocations.reduce((sum, allocation) => sum + allocation.amount, 0);
      // With taxes_included the price already holds the VAT; otherwise the line's tax is added on top.
      const taxOre = order.taxes_included ? 0 : item.tax_lines.reduce((sum, tax) => sum + tax.price, 0);
      return {
        shopifyLineId: item.id,
        shopifyProductId: item.product_id ?? null,
        sku: item.sku?.trim() || null,
        title: item.title?.trim() || item.name?.trim() || 'Produkt',
        quantity: item.quantity,
        amountOre: Math.max(0, item.price * item.quantity - discountOre + taxOre),
      };
    });
}

export type LinkCodeSource = 'cart_attribute' | 'landing_site' | 'discount_code';

/** Link codes are letters and digits; anything else cannot be one and is not looked up. */
function normaliseLinkCode(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const code = String(value).trim().toUpperCase();
  return /^[A-Z0-9_-]{1,64}$/.test(code) ? code : null;
}

function refOfLandingSite(landingSite: string): string | null {
  try {
    return new URL(landingSite, 'https://butik.invalid').searchParams.get('ref');
  } catch {
    return null;
  }
}

/**
 * Every personal link code the order carries, most reliable first: the cart attribute `ref` the
 * theme stores (it survives browsing), the `?ref=` of the page the visit landed on, and last the
 * discount codes, which the shop may have created equal to a seller's code.
 */
export function linkCodeCandidates(order: TShopifyOrder): { code: string; source: LinkCodeSource }[] {
  const found: { code: string | null; source: LinkCodeSource }[] = [
    ...order.note_attributes
      .filter((attribute) => attribute.name.trim().toLowerCase() === 'ref')
      .map((attribute) => ({ code: normaliseLinkCode(attribute.value), source: 'cart_attribute' as const })),
    { code: normaliseLinkCode(order.landing_site_ref), source: 'landing_site' },
    { code: order.landing_site ? normaliseLinkCode(refOfLandingSite(order.landing_site)) : null, source: 'landing_site' },
    ...order.discount_codes.map((discount) => ({ code: normaliseLinkCode(discount.code), source: 'discount_code' as const })),
  ];
  const seen = new Set<string>();
  return found.flatMap(({ code, source }) => {
    if (!code || seen.has(code)) return [];
    seen.add(code);
    return [{ code, source }];
  });
}

/** `cancelled` once Shopify has cancelled the order, otherwise its financial status (paid, pending…). */
export function orderStateOf(order: TShopifyOrder): string {
  if (order.cancelled_at) return 'cancelled';
  return order.financial_status?.trim() || 'pending';
}

/** Shopify's processed_at is the date its own reports use; created_at differs only for imported orders. */
export const orderedAtOf = (order: TShopifyOrder): Date => order.processed_at ?? order.created_at;

/** Which of two deliveries of an order carries the newer data. */
export const shopifyVersionOf = (order: TShopifyOrder): Date => order.updated_at ?? order.created_at;

export interface LineFigures {
  quantity: number;
  amountOre: number;
  commissionOre: number;
}

/**
 * How much to take back from a sale line when `units` of it are refunded, or all that is left of it
 * on cancellation (`'rest'`). `remaining` is the sale net of earlier reversals. A reversal never
 * takes back more than remains, and the one that empties a line takes exactly the remainder, so a
 * fully reversed line nets to zero whatever the order of refunds and cancellation. Null when
 * nothing is left to take back. The figures returned are positive amounts to subtract.
 */
export function reversalOf(sale: LineFigures, remaining: LineFigures, units: number | 'rest'): LineFigures | null {
  if (remaining.quantity <= 0 || (units !== 'rest' && units <= 0)) return null;
  if (units === 'rest' || units >= remaining.quantity) return { ...remaining };
  const share = (total: number) => Math.round((total * units) / sale.quantity);
  return {
    quantity: units,
    amountOre: Math.min(remaining.amountOre, share(sale.amountOre)),
    commissionOre: Math.min(remaining.commissionOre, share(sale.commissionOre)),
  };
}
