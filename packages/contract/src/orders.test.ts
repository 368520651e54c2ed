import { describe, expect, it } from 'vitest';
import { ZAdminSellerOrderSchema, ZShopifyIdSchema, ZUnattributedOrderSchema } from './index.js';

const order = {
  order_id: 1,
  order_name: null,
  ordered_at: '2026-03-10T13:05:00.000Z',
  created_at: '2026-03-10T13:05:00.000Z',
  subtotal_incl_vat: 149,
  commission_total: 37.25,
  state: 'paid',
  group_id: 1,
  ref_code: null,
  archived_link: null,
};

describe('Shopify ids in answers', () => {
  it('are strings of digits, exact past 2^53', () => {
    for (const id of ['820982911946154508', '820982911946154509', '1', '9223372036854775807']) {
      expect(ZShopifyIdSchema.parse(id)).toBe(id);
    }
    for (const id of ['', '-1', '1.5', '8209829119461545e2', ' 1', '12345678901234567890']) {
      expect(ZShopifyIdSchema.safeParse(id).success, id).toBe(false);
    }
  });

  it('are refused as a JavaScript number in every answer that carries one', () => {
    for (const schema of [ZAdminSellerOrderSchema, ZUnattributedOrderSchema]) {
      expect(schema.safeParse({ ...order, shopify_order_id: '820982911946154509' }).success).toBe(true);
      // 820982911946154509 as a number is already 820982911946154500: the contract must not carry it.
      expect(schema.safeParse({ ...order, shopify_order_id: Number('820982911946154509') }).success).toBe(false);
      expect(schema.safeParse({ ...order, shopify_order_id: 5 }).success).toBe(false);
    }
  });
});
