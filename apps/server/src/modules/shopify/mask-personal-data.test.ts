import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseShopifyJson } from '../../lib/shopify-json.js';
import { maskContactsInText, maskEmail, maskPersonalData, maskPhone, maskText } from './mask-personal-data.js';

const fixture = (name: string) =>
  fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/shopify', name), 'utf8');

/** Shopify's own sample order, with a Swedish buyer put in every place a person appears. */
function swedishBuyerOrder(): Record<string, unknown> {
  const order = parseShopifyJson(fixture('orders-create.json')) as Record<string, unknown>;
  const person = {
    first_name: 'Astrid',
    last_name: 'Lindgren',
    name: 'Astrid Lindgren',
    address1: 'Dalagatan 46',
    address2: 'Lägenhet 1102',
    city: 'Vimmerby',
    zip: '598 37',
    company: 'Saltkråkan AB',
    phone: '+46 70 123 45 67',
    latitude: 57.6658,
    longitude: 15.8555,
  };
  return {
    ...order,
    email: 'astrid.lindgren@exempel.se',
    contact_email: 'astrid.lindgren@exempel.se',
    phone: '070-123 45 67',
    note: 'Ring Astrid innan leverans',
    billing_address: { ...(order.billing_address as object), ...person },
    shipping_address: { ...(order.shipping_address as object), ...person },
    customer: { ...(order.customer as object), first_name: 'Astrid', last_name: 'Lindgren', email: 'astrid.lindgren@exempel.se' },
    note_attributes: [{ name: 'ref', value: 'DEMO0003' }],
  };
}

const PERSONAL = [
  'Astrid',
  'Lindgren',
  'astrid.lindgren',
  'exempel',
  'Dalagatan',
  'Lägenhet',
  'Vimmerby',
  '598 37',
  'Saltkråkan',
  '70 123 45 67',
  '123 45 67',
  '57.6658',
  'john@example.com',
  'Ottawa',
  '123 Elm St.',
  '123-123-1234',
  'Shipper',
  'Shippington',
];

describe('maskPersonalData', () => {
  it('leaves no buyer name, address, e-mail address or phone number of an order', () => {
    const masked = JSON.stringify(maskPersonalData(swedishBuyerOrder()));
    for (const text of PERSONAL) expect(masked, text).not.toContain(text);
  });

  it('keeps what the operator needs: the order, its lines, amounts, ids and the personal link code', () => {
    const original = swedishBuyerOrder();
    const masked = maskPersonalData(original) as Record<string, unknown>;
    expect(masked.id).toEqual(original.id);
    expect(masked.name).toBe(original.name);
    expect(masked.total_price).toBe(original.total_price);
    expect(masked.note_attributes).toEqual([{ name: 'ref', value: 'DEMO0003' }]);
    expect((masked.line_items as { title: string }[]).map((line) => line.title)).toEqual(
      (original.line_items as { title: string }[]).map((line) => line.title),
    );
    expect((masked.customer as { id: unknown }).id).toEqual((original.customer as { id: unknown }).id);
    // The original is not touched.
    expect((original.billing_address as { first_name: string }).first_name).toBe('Astrid');
  });

  it('masks as Dub does: the first character of each word', () => {
    const masked = maskPersonalData(swedishBuyerOrder()) as Record<string, Record<string, unknown>>;
    expect(masked.billing_address).toMatchObject({
      first_name: 'A***',
      name: 'A*** L***',
      address1: 'D*** 4***',
      zip: '5*** 3***',
      phone: '+4***67',
      latitude: '***',
    });
    expect(masked.email).toBe('a***@e***.se');
    expect(masked.phone).toBe('0***67');
  });

  it('finds a person by the shape of the data, not by known paths', () => {
    const masked = JSON.stringify(
      maskPersonalData({
        new_field_from_shopify: { recipient: { first_name: 'Pippi', name: 'Pippi Långstrump', address1: 'Villa Villekulla' } },
        gift_cards: [{ message: 'Till pippi@villekulla.se från 0701234567', code: 'PRESENT' }],
        tags: 'kontakt: +46 (0)70-765 43 21',
      }),
    );
    for (const text of ['Pippi', 'Långstrump', 'Villekulla', 'pippi@', '0701234567', '765 43 21']) expect(masked, text).not.toContain(text);
    expect(masked).toContain('PRESENT');
  });

  it('does not mistake ids, prices and times for phone numbers', () => {
    const value = { id: '820982911946154508', price: '149.00', at: '2026-03-10T14:05:00+01:00', rate: 0.25, code: 'BJK6B2' };
    expect(maskPersonalData(value)).toEqual(value);
  });
});

describe('the maskers', () => {
  it('mask an e-mail address, a phone number and a name', () => {
    expect(maskEmail('anna@exempel.se')).toBe('a***@e***.se');
    expect(maskPhone('08-123 456 78')).toBe('0***78');
    expect(maskText('Anna Svensson')).toBe('A*** S***');
  });

  it('mask addresses and numbers inside a free text, such as a recorded error', () => {
    expect(maskContactsInText('duplicate key (email)=(anna@exempel.se), ring 070-123 45 67')).toBe(
      'duplicate key (email)=(a***@e***.se), ring 0***67',
    );
  });
});
