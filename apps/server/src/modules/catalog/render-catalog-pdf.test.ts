import { describe, expect, it } from 'vitest';
import { pdfImageCount, pdfPageCount, pdfQrCodes, pdfText, solidColourPng } from '../../../test/pdf-tools.js';
import { renderCatalogPdf, type CatalogPdfData } from './render-catalog-pdf.js';

const link = 'https://saljportalen.example.se/s/K7M2Q9XA';

const product = (title: string, priceOre: number, description = 'Hållbar vara från en svensk leverantör.') => ({
  title,
  description,
  priceOre,
  image: null,
});

const catalog = (overrides: Partial<CatalogPdfData> = {}): CatalogPdfData => ({
  sellerName: 'Åsa Öberg',
  personalLink: link,
  createdAt: new Date('2026-03-14T09:00:00Z'),
  products: [
    product('Bivaxdukar 3-pack', 14_900, 'Ersätter plastfolie. Tvättbara och håller i ett år.'),
    product('Ekologiskt kaffe 500 g', 11_900),
  ],
  ...overrides,
});

/** pdftotext keeps pdfkit's no-break spaces; people read them as spaces, and a wrapped sentence as one. */
const readable = (text: string) => text.replace(/\s+/g, ' ');

describe('renderCatalogPdf', () => {
  it('prints the seller, no group, the link and the products with Swedish prices and letters', async () => {
    const text = readable(pdfText(await renderCatalogPdf(catalog())));
    expect(text).toContain('Åsa Öberg');
    expect(text).toContain('samla in pengar till min klass');
    expect(text).toContain(link);
    expect(text).toContain('Bivaxdukar 3-pack');
    expect(text).toContain('Ersätter plastfolie. Tvättbara och håller i ett år.');
    expect(text).toMatch(/149 kr/);
    expect(text).toMatch(/119 kr/);
    expect(text).toContain('2026-03-14');
  });

  it('carries a QR code that decodes to the personal link', async () => {
    expect(pdfQrCodes(await renderCatalogPdf(catalog()))).toEqual([link]);
  });

  it('flows a long catalogue onto more pages and numbers each one', async () => {
    const many = Array.from({ length: 30 }, (_, i) => product(`Produkt nummer ${i + 1}`, 5_900 + i * 100));
    const pdf = await renderCatalogPdf(catalog({ products: many }));
    const pages = pdfPageCount(pdf);
    expect(pages).toBeGreaterThan(1);
    const text = pdfText(pdf);
    expect(text).toContain(`Sida ${pages} av ${pages}`);
    for (const item of many) expect(text).toContain(item.title);
  });

  it('embeds product pictures and leaves out one it cannot read', async () => {
    const picture = solidColourPng(40, 30, [42, 122, 75]);
    const pdf = await renderCatalogPdf(
      catalog({
        products: [
          { ...product('Med bild', 9_900), image: picture },
          { ...product('Trasig bild', 9_900), image: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]) },
        ],
      }),
    );
    // The personal QR code plus the one readable product picture.
    expect(pdfImageCount(pdf)).toBe(2);
    expect(pdfText(pdf)).toContain('Trasig bild');
  });

  it('says so when there are no products', async () => {
    expect(pdfText(await renderCatalogPdf(catalog({ products: [] })))).toContain('Det finns inga produkter i katalogen just nu.');
  });

  it('prints a name in any of the scripts its fonts cover exactly as it is written (issue 32 point 3)', async () => {
    for (const sellerName of ['Łucja Şahin-Nguyễn', 'Alva 🌟 från 6B', 'Μαρία Παπαδοπούλου', 'Мария Иванова', 'محمد علي']) {
      const text = pdfText(await renderCatalogPdf(catalog({ sellerName })));
      // The name in the heading and in every page's footer.
      expect(text.split(sellerName).length - 1).toBe(2);
    }
  });

  it('embeds only the glyphs it uses, so a catalogue stays small', async () => {
    // Noto Sans, Noto Sans Arabic and Noto Emoji are 2.4 MB in two weights; a catalogue carries a few kilobytes of each.
    const pdf = await renderCatalogPdf(catalog({ sellerName: 'محمد 🌟 Łucja' }));
    expect(pdf.length).toBeLessThan(80_000);
  });
});
