import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shopifyFixture } from '../../test/shopify-webhooks.js';
import { parseShopifyJson } from './shopify-json.js';

describe('parseShopifyJson', () => {
  it("keeps every digit of the 64-bit ids in Shopify's sample order", () => {
    const order = parseShopifyJson(shopifyFixture('orders-create.json')) as {
      id: unknown;
      line_items: { id: unknown; product_id: unknown; price: unknown }[];
    };
    expect(order.id).toBe('820982911946154508');
    expect(order.line_items.map((item) => item.product_id)).toEqual(['788032119674292922', '788032119674292923', '788032119674292924']);
    // What plain JSON.parse makes of the same bytes: three products become one.
    const plain = JSON.parse(shopifyFixture('orders-create.json')) as { line_items: { product_id: number }[] };
    expect(new Set(plain.line_items.map((item) => item.product_id)).size).toBe(1);
    expect(order.line_items[0]!.price).toBe('89.99');
  });

  it('leaves safe integers, decimals, exponents and strings that look like numbers alone', () => {
    const text =
      '{"a": 9007199254740991, "b": -12.5, "c": 1e21, "d": "12345678901234567890", "e": "say \\"99999999999999999\\"", "f": [-99999999999999999, 0], "g": 0.12345678901234567890, "h": 1e-12345678901234567}';
    expect(parseShopifyJson(text)).toEqual({
      a: 9007199254740991,
      b: -12.5,
      c: 1e21,
      d: '12345678901234567890',
      e: 'say "99999999999999999"',
      f: ['-99999999999999999', 0],
      g: 0.12345678901234568,
      h: 0,
    });
  });

  it('rejects what JSON.parse rejects, even where quoting a number would make it valid', () => {
    for (const text of ['{"id": 1', '', '{12345678901234567890: 1}', '[012345678901234567890]', 'null,']) {
      expect(() => parseShopifyJson(text)).toThrow(SyntaxError);
    }
  });

  it('agrees with JSON.parse on any JSON without unsafe integers', () => {
    const safe = (value: unknown): boolean =>
      typeof value === 'number'
        ? !Number.isInteger(value) || Number.isSafeInteger(value)
        : typeof value === 'object' && value !== null
          ? Object.values(value).every(safe)
          : true;
    fc.assert(
      fc.property(fc.jsonValue().filter(safe), (value) => {
        const text = JSON.stringify(value);
        expect(parseShopifyJson(text)).toEqual(JSON.parse(text));
      }),
    );
  });
});
