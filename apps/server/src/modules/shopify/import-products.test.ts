import { describe, expect, it } from 'vitest';
import { readProductCsv } from './import-products.js';

describe('readProductCsv', () => {
  it('reads a hand-written file with ids, rates and statuses, and lists the rows it cannot use', () => {
    const { rows, skipped } = readProductCsv(
      [
        'shopify_product_id,sku,title,description,price,commission_percent,active,image_url',
        '8100000000001,SP-1,Kaffe,Mörkrost,119,25,ja,https://cdn.example.se/kaffe.jpg',
        'gid://shopify/Product/8100000000002,,Te,,"89,50",,nej,',
        ',SP-3,,,10,,,',
        'abc,SP-4,Socker,,10,,,',
        ',SP-5,Salt,,10,150,,',
        ',SP-6,Peppar,,10,,kanske,',
        ',SP-7,Senap,,10,,,ftp://bild',
      ].join('\r\n'),
    );
    expect(rows).toEqual([
      {
        line: 2,
        shopifyProductId: '8100000000001',
        sku: 'SP-1',
        fields: {
          title: 'Kaffe',
          description: 'Mörkrost',
          priceOre: 11900,
          imageUrl: 'https://cdn.example.se/kaffe.jpg',
          active: true,
          commissionBps: 2500,
        },
      },
      {
        line: 3,
        shopifyProductId: '8100000000002',
        sku: null,
        fields: { title: 'Te', description: '', priceOre: 8950, imageUrl: null, active: false },
      },
    ]);
    expect(skipped).toEqual([
      { line: 4, reason: 'titel saknas' },
      { line: 5, reason: 'ogiltigt Shopify-id "abc"' },
      { line: 6, reason: 'provisionen måste vara 0–100 %, inte "150"' },
      { line: 7, reason: 'okänd status "kanske"' },
      { line: 8, reason: 'bildadressen måste börja med http:// eller https://' },
    ]);
  });

  it('keeps titles, SKUs and addresses on one clean line and descriptions storable, as the webhooks do', () => {
    const { rows } = readProductCsv(
      'title,sku,description,price,image_url\n"Kaf\u0000fe\u001b\r\n",SP-\u00071,"Rad 1\u0000\nRad 2",119," https://cdn.example.se/k.jpg\u0000"\n',
    );
    expect(rows.map((row) => [row.fields.title, row.sku, row.fields.description, row.fields.imageUrl])).toEqual([
      ['Kaf fe', 'SP- 1', 'Rad 1\nRad 2', 'https://cdn.example.se/k.jpg'],
    ]);
  });

  it('refuses a file without a title or a price column, and an empty one, in Swedish', () => {
    expect(() => readProductCsv('sku,namn\nSP-1,Kaffe\n')).toThrow(/pris/);
    expect(() => readProductCsv('')).toThrow('CSV-filen är tom');
    expect(() => readProductCsv('title,price\n"oavslutad,1\n')).toThrow(/kunde inte läsas/);
  });
});
