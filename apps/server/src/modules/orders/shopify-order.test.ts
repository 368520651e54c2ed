import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { swedishOrder } from '../../../test/shopify-webhooks.js';
import { ZShopifyOrderSchema } from '../../lib/shopify-payloads.js';
import { linkCodeCandidates, orderStateOf, reversalOf, saleLinesOf, type LineFigures } from './shopify-order.js';

const order = (overrides: Record<string, unknown> = {}) => ZShopifyOrderSchema.parse({ ...swedishOrder({ id: 1 }), ...overrides });

describe('saleLinesOf', () => {
  it('takes price × quantity after the discounts allocated to the line, VAT included, and leaves gift cards out', () => {
    const lines = saleLinesOf(
      order({
        line_items: [
          {
            id: 11,
            product_id: 5,
            sku: ' SP-1 ',
            title: 'Kaffe',
            quantity: 3,
            price: '119.00',
            discount_allocations: [{ amount: '10.00' }, { amount: '2.50' }],
            tax_lines: [{ price: '68.90' }],
          },
          { id: 12, product_id: null, title: null, name: 'Te - Grönt', quantity: 1, price: '50.00' },
          { id: 13, title: 'Presentkort', quantity: 1, price: '500.00', gift_card: true },
          { id: 14, title: 'Borttagen', quantity: 0, price: '10.00' },
        ],
      }),
    );
    expect(lines).toEqual([
      { shopifyLineId: '11', shopifyProductId: '5', sku: 'SP-1', title: 'Kaffe', quantity: 3, amountOre: 3 * 11900 - 1250 },
      { shopifyLineId: '12', shopifyProductId: null, sku: null, title: 'Te - Grönt', quantity: 1, amountOre: 5000 },
    ]);
  });

  it('adds the tax lines when prices exclude VAT', () => {
    const lines = saleLinesOf(
      order({
        taxes_included: false,
        line_items: [
          {
            id: 1,
            title: 'Kaffe',
            quantity: 2,
            price: '100.00',
            discount_allocations: [{ amount: '20.00' }],
            tax_lines: [{ price: '45.00' }],
          },
        ],
      }),
    );
    expect(lines[0]!.amountOre).toBe(20000 - 2000 + 4500);
  });
});

describe('linkCodeCandidates', () => {
  it('lists cart attribute, landing site and discount codes in that order, normalised and without repeats', () => {
    const candidates = linkCodeCandidates(
      order({
        note_attributes: [
          { name: 'gift_note', value: 'Grattis' },
          { name: ' REF ', value: ' demo0001 ' },
        ],
        landing_site_ref: 'demo0002',
        landing_site: 'https://butik.example.se/products/kaffe?utm_source=sms&ref=DEMO0003',
        discount_codes: [{ code: 'DEMO0001' }, { code: 'VÅR10' }, { code: 'DEMO0004' }],
      }),
    );
    expect(candidates).toEqual([
      { code: 'DEMO0001', source: 'cart_attribute' },
      { code: 'DEMO0002', source: 'landing_site' },
      { code: 'DEMO0003', source: 'landing_site' },
      { code: 'DEMO0004', source: 'discount_code' },
    ]);
  });

  it('finds nothing in an order without codes, and survives a landing site that is no URL', () => {
    expect(linkCodeCandidates(order({ note_attributes: [], landing_site: 'http://[::1', discount_codes: [] }))).toEqual([]);
    expect(linkCodeCandidates(order({ note_attributes: [], landing_site: '/?ref=ABC123', discount_codes: [] }))).toEqual([
      { code: 'ABC123', source: 'landing_site' },
    ]);
  });
});

describe('orderStateOf', () => {
  it('is cancelled once cancelled, otherwise the financial status', () => {
    expect(orderStateOf(order({ financial_status: 'partially_refunded' }))).toBe('partially_refunded');
    expect(orderStateOf(order({ financial_status: 'paid', cancelled_at: '2026-03-11T08:00:00+01:00' }))).toBe('cancelled');
    expect(orderStateOf(order({ financial_status: null }))).toBe('pending');
  });
});

describe('reversalOf', () => {
  const subtract = (a: LineFigures, b: LineFigures): LineFigures => ({
    quantity: a.quantity - b.quantity,
    amountOre: a.amountOre - b.amountOre,
    commissionOre: a.commissionOre - b.commissionOre,
  });

  it('takes back a share by quantity, and the rest on cancellation', () => {
    const sale = { quantity: 3, amountOre: 40_700, commissionOre: 10_175 };
    const first = reversalOf(sale, sale, 1)!;
    expect(first).toEqual({ quantity: 1, amountOre: 13_567, commissionOre: 3392 });
    const rest = reversalOf(sale, subtract(sale, first), 'rest')!;
    expect(rest).toEqual({ quantity: 2, amountOre: 27_133, commissionOre: 6783 });
    expect(reversalOf(sale, subtract(subtract(sale, first), rest), 1)).toBeNull();
  });

  it('never takes back more than was sold, and nets a fully reversed line to exactly zero, in any order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.array(fc.oneof(fc.integer({ min: 0, max: 25 }), fc.constant('rest' as const)), { maxLength: 8 }),
        (quantity, amountOre, bps, steps) => {
          const sale = { quantity, amountOre, commissionOre: Math.round((amountOre * bps) / 10_000) };
          let remaining = sale;
          for (const step of steps) {
            const taken = reversalOf(sale, remaining, step);
            if (!taken) continue;
            remaining = subtract(remaining, taken);
            expect(remaining.quantity).toBeGreaterThanOrEqual(0);
            expect(remaining.amountOre).toBeGreaterThanOrEqual(0);
            expect(remaining.commissionOre).toBeGreaterThanOrEqual(0);
          }
          if (remaining.quantity === 0) expect(remaining).toEqual({ quantity: 0, amountOre: 0, commissionOre: 0 });
        },
      ),
    );
  });
});
