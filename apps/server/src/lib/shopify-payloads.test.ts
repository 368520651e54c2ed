import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shopifyFixture } from '../../test/shopify-webhooks.js';
import { parseShopifyJson } from './shopify-json.js';
import { amountToOre, shopifyOrderIdOf, ZShopifyOrderSchema, ZShopifyRefundSchema } from './shopify-payloads.js';

describe('amountToOre', () => {
  it('reads Shopify amounts exactly', () => {
    expect(['0.00', '89.99', '159.99', '1.5', '12', '-5.00', '0.285', '0.284', ' 7.10 '].map(amountToOre)).toEqual([
      0, 8999, 15999, 150, 1200, -500, 29, 28, 710,
    ]);
    expect([199, 0.29, 75.5].map(amountToOre)).toEqual([19900, 29, 7550]);
    expect(['', 'abc', '1,50', '1e3', '--1', '1.2.3'].map(amountToOre)).toEqual([null, null, null, null, null, null]);
  });

  it('gives back any whole number of öre written with two decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (ore) => {
        const text = `${ore < 0 ? '-' : ''}${Math.floor(Math.abs(ore) / 100)}.${String(Math.abs(ore) % 100).padStart(2, '0')}`;
        expect(amountToOre(text)).toBe(ore === 0 ? 0 : ore);
      }),
    );
  });
});

describe('payload schemas on Shopify sample payloads', () => {
  it('reads the sample order with exact ids, amounts in öre and dates as instants', () => {
    const order = ZShopifyOrderSchema.parse(parseShopifyJson(shopifyFixture('orders-create.json')));
    expect(order.id).toBe('820982911946154508');
    expect(order.test).toBe(true);
    expect(order.created_at.toISOString()).toBe('2022-01-01T00:00:00.000Z');
    expect(order.line_items.map((item) => [item.id, item.price, item.quantity])).toEqual([
      ['487817672276298554', 8999, 1],
      ['976318377106520349', 15999, 1],
      ['315789986012684393', 11999, 1],
    ]);
    expect(ZShopifyOrderSchema.parse(parseShopifyJson(shopifyFixture('orders-cancelled.v2025-01.json'))).cancelled_at).toBeInstanceOf(Date);
  });

  it('reads the sample refund with its refund lines', () => {
    const refund = ZShopifyRefundSchema.parse(parseShopifyJson(shopifyFixture('refunds-create.json')));
    expect(refund.refund_line_items.map((item) => [item.line_item_id, item.quantity])).toEqual([
      ['866550311766439000', 1],
      ['141249953214522980', 1],
    ]);
    expect(shopifyOrderIdOf('refunds/create', parseShopifyJson(shopifyFixture('refunds-create.json')))).toBe('820982911946154500');
  });

  it('finds the order id of order and refund topics only', () => {
    expect(shopifyOrderIdOf('orders/updated', { id: 5 })).toBe('5');
    expect(shopifyOrderIdOf('products/update', { id: 5 })).toBeNull();
    expect(shopifyOrderIdOf('orders/create', { id: 'x' })).toBeNull();
    expect(shopifyOrderIdOf('orders/create', null)).toBeNull();
  });
});
