import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseShopifyJson } from '../../lib/shopify-json.js';
import { ZShopifyOrderSchema, ZShopifyProductSchema, ZShopifyRefundSchema } from '../../lib/shopify-payloads.js';
import { reduceShopifyPayload } from './reduce-payload.js';

const fixture = (name: string) =>
  fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/shopify', name), 'utf8');

const person = {
  first_name: 'Astrid',
  last_name: 'Lindgren',
  name: 'Astrid Lindgren',
  address1: 'Dalagatan 46',
  city: 'Vimmerby',
  zip: '598 37',
  phone: '+46 70 123 45 67',
};
const BUYER = ['Astrid', 'Lindgren', 'exempel.se', 'Dalagatan', 'Vimmerby', '598 37', '70 123 45 67', '192.0.2.7', 'Ring innan'];

/** Shopify's own sample order, with a Swedish buyer everywhere Shopify puts one. */
function orderWithBuyer(): Record<string, unknown> {
  const order = parseShopifyJson(fixture('orders-create.json')) as Record<string, unknown>;
  return {
    ...order,
    email: 'astrid.lindgren@exempel.se',
    contact_email: 'astrid.lindgren@exempel.se',
    phone: '070-123 45 67',
    browser_ip: '192.0.2.7',
    note: 'Ring innan leverans',
    billing_address: person,
    shipping_address: person,
    customer: { id: 1, first_name: 'Astrid', last_name: 'Lindgren', email: 'astrid.lindgren@exempel.se', default_address: person },
    client_details: { browser_ip: '192.0.2.7', user_agent: 'Mozilla/5.0' },
    note_attributes: [
      { name: 'ref', value: 'DEMO0003' },
      { name: 'Hälsning', value: 'Grattis Astrid Lindgren!' },
    ],
    landing_site: '/products/bivaxdukar?ref=DEMO0003&utm_source=astrid.lindgren@exempel.se',
  };
}

describe('reduceShopifyPayload', () => {
  it('keeps nothing of the buyer and everything the ledger reads of an order', () => {
    const order = orderWithBuyer();
    const reduced = reduceShopifyPayload('orders/create', order);
    const text = JSON.stringify(reduced);
    for (const personal of BUYER) expect(text, personal).not.toContain(personal);
    expect(text).not.toContain('customer');
    expect(ZShopifyOrderSchema.parse(reduced)).toEqual({
      ...ZShopifyOrderSchema.parse(order),
      // Only the cart attribute the ledger reads, and only the `?ref=` of the landing page.
      note_attributes: [{ name: 'ref', value: 'DEMO0003' }],
      landing_site: '/?ref=DEMO0003',
    });
  });

  it('changes nothing when reduced again, and keeps 64-bit ids exact', () => {
    const order = parseShopifyJson(fixture('orders-create.json').replace(/"id":\s*820982911946154508/, '"id": 820982911946154509'));
    const once = reduceShopifyPayload('orders/create', order);
    expect(reduceShopifyPayload('orders/create', once)).toEqual(once);
    expect((once as { id: unknown }).id).toBe('820982911946154509');
    expect(JSON.stringify(once)).toContain('"820982911946154509"');
  });

  it('keeps what a refund and a product are read for', () => {
    const refund = parseShopifyJson(fixture('refunds-create.json'));
    expect(ZShopifyRefundSchema.parse(reduceShopifyPayload('refunds/create', refund))).toEqual(ZShopifyRefundSchema.parse(refund));
    expect(JSON.stringify(reduceShopifyPayload('refunds/create', refund))).not.toContain('"note"');
    const product = {
      id: 5,
      title: 'Bivaxdukar',
      body_html: '<p>Tre dukar</p>',
      status: 'active',
      variants: [{ sku: 'SP-1', price: '149.00', inventory_quantity: 4 }],
    };
    expect(ZShopifyProductSchema.parse(reduceShopifyPayload('products/update', product))).toEqual(ZShopifyProductSchema.parse(product));
  });

  it('keeps only the id of a topic the portal does not handle', () => {
    expect(reduceShopifyPayload('customers/create', { id: 7, email: 'astrid.lindgren@exempel.se', first_name: 'Astrid' })).toEqual({
      id: 7,
    });
    expect(reduceShopifyPayload('customers/create', 'Astrid')).toBe('Astrid');
  });

  it('keeps a value of the wrong kind as plain as it is, so the ledger refuses it the same way, without what it held', () => {
    const odd = { id: 1, line_items: { customer: 'Astrid' }, name: { first_name: 'Astrid' }, created_at: 5 };
    const reduced = reduceShopifyPayload('orders/create', odd);
    expect(reduced).toEqual({ id: 1, line_items: {}, name: {}, created_at: 5 });
    expect(ZShopifyOrderSchema.safeParse(reduced).error?.issues.map((issue) => issue.path.join('.'))).toEqual(
      ZShopifyOrderSchema.safeParse(odd).error?.issues.map((issue) => issue.path.join('.')),
    );
  });
});
