import { parse } from 'csv-parse/sync';
import { toSingleLineText } from '@saljportalen/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { toStorableText } from '../../lib/storable-text.js';
import { htmlToPlainText } from './plain-text.js';
import { saveProduct, type ProductFields } from './save-product.js';
import { amountToOre } from '../../lib/shopify-payloads.js';

/**
 * Column names accepted, lower case: Shopify's own product export (Products → Export) and a
 * short Swedish/English form an operator can write by hand. Only title and price are required.
 */
const COLUMN_NAMES = {
  handle: ['handle'],
  shopifyProductId: ['id', 'shopify_product_id', 'shopify-id'],
  title: ['title', 'titel', 'namn'],
  description: ['body (html)', 'description', 'beskrivning'],
  sku: ['variant sku', 'sku', 'artikelnummer'],
  price: ['variant price', 'price', 'pris'],
  image: ['image src', 'image_url', 'bild'],
  commission: ['provision', 'provision (%)', 'commission_percent', 'commission (%)'],
  status: ['status', 'active', 'aktiv'],
} as const;
type Column = keyof typeof COLUMN_NAMES;

export interface ProductRow {
  line: number;
  shopifyProductId: string | null;
  sku: string | null;
  fields: ProductFields;
}

export interface SkippedRow {
  line: number;
  reason: string;
}

const ACTIVE = new Set(['', 'active', 'aktiv', 'ja', 'yes', 'true', '1']);
const INACTIVE = new Set(['draft', 'archived', 'utkast', 'arkiverad', 'inaktiv', 'nej', 'no', 'false', '0']);

/** "1 149,50", "149.00" and "149" alike: Swedish spreadsheets write decimal commas. */
const parseDecimal = (text: string) =>
  amountToOre(
    text
      .replace(/[\s\u00a0]/g, '')
      .replace(',', '.')
      .replace(/(kr|sek|%)$/i, ''),
  );

/** Semicolons when the header has more of them than commas (Excel with Swedish settings). */
function delimiterOf(text: string): string {
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  return (header.match(/;/g)?.length ?? 0) > (header.match(/,/g)?.length ?? 0) ? ';' : ',';
}

/**
 * Reads a product CSV. In Shopify's export a product spans several rows with the same Handle
 * (one per variant or image); the first row names it and later rows only fill in what it lacks.
 * Rows that cannot become a product are listed with their line and the reason, in Swedish.
 */
export function readProductCsv(text: string): { rows: ProductRow[]; skipped: SkippedRow[] } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      delimiter: delimiterOf(text),
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (error) {
    throw new AppError('VALIDATION', `CSV-filen kunde inte läsas: ${error instanceof Error ? error.message : String(error)}`);
  }
  const [header, ...data] = records;
  if (!header) throw new AppError('VALIDATION', 'CSV-filen är tom');
  const names = header.record.map((name) => name.toLowerCase());
  const index = Object.fromEntries(
    Object.entries(COLUMN_NAMES).map(([column, aliases]) => [
      column,
      names.findIndex((name) => (aliases as readonly string[]).includes(name)),
    ]),
  ) as Record<Column, number>;
  if (index.title < 0 || index.price < 0) {
    throw new AppError(
      'VALIDATION',
      'CSV-filen måste ha en kolumn för titel (title, titel eller Title) och en för pris (price, pris eller Variant Price)',
    );
  }

  const rows: ProductRow[] = [];
  const skipped: SkippedRow[] = [];
  const byHandle = new Map<string, ProductRow>();
  for (const { record, info } of data) {
    const rawCell = (column: Column) => (index[column] >= 0 ? (record[index[column]] ?? '') : '');
    // The shop's export, as the webhooks: one clean line for every cell but the description.
    const cell = (column: Column) => toSingleLineText(rawCell(column));
    const line = info.lines;
    const handle = cell('handle');
    const earlier = handle ? byHandle.get(handle) : undefined;
    if (earlier) {
      earlier.sku ??= cell('sku') || null;
      earlier.fields.imageUrl ??= cell('image') || null;
      continue;
    }
    const title = cell('title');
    if (!title) {
      skipped.push({ line, reason: 'titel saknas' });
      continue;
    }
    const priceOre = parseDecimal(cell('price'));
    if (priceOre === null || priceOre < 0) {
      skipped.push({ line, reason: `ogiltigt pris "${cell('price')}"` });
      continue;
    }
    const idText = cell('shopifyProductId');
    const shopifyProductId = idText ? (/^(?:gid:\/\/shopify\/Product\/)?(\d{1,19})$/.exec(idText)?.[1] ?? null) : null;
    if (idText && !shopifyProductId) {
      skipped.push({ line, reason: `ogiltigt Shopify-id "${idText}"` });
      continue;
    }
    let commissionBps: number | undefined;
    if (cell('commission')) {
      // Hundredths of a percent are basis points, just as hundredths of a krona are öre.
      const hundredths = parseDecimal(cell('commission'));
      if (hundredths === null || hundredths < 0 || hundredths > 10_000) {
        skipped.push({ line, reason: `provisionen måste vara 0–100 %, inte "${cell('commission')}"` });
        continue;
      }
      commissionBps = hundredths;
    }
    const status = cell('status').toLowerCase();
    if (!ACTIVE.has(status) && !INACTIVE.has(status)) {
      skipped.push({ line, reason: `okänd status "${cell('status')}"` });
      continue;
    }
    const image = cell('image');
    if (image && !/^https?:\/\//i.test(image)) {
      skipped.push({ line, reason: `bildadressen måste börja med http:// eller https://` });
      continue;
    }
    const description = toStorableText(rawCell('description').trim());
    const row: ProductRow = {
      line,
      shopifyProductId,
      sku: cell('sku') || null,
      fields: {
        title,
        description: /<[a-z][\s\S]*>|&[a-z#0-9]+;/i.test(description) ? htmlToPlainText(description) : description,
        priceOre,
        imageUrl: image || null,
        active: ACTIVE.has(status),
        ...(commissionBps === undefined ? {} : { commissionBps }),
      },
    };
    rows.push(row);
    if (handle) byHandle.set(handle, row);
  }
  return { rows, skipped };
}

/**
 * Imports the catalogue from a CSV file in one transaction. A row updates the product with the
 * same Shopify id, SKU or title, otherwise creates one; a commission column sets the rate, its
 * absence leaves rates as they are.
 */
export async function importProducts(db: Db, csvText: string): Promise<{ created: number; updated: number; skipped: SkippedRow[] }> {
  const { rows, skipped } = readProductCsv(csvText);
  return db.transaction(async (tx) => {
    // Product webhooks wait meanwhile, so a row and a webhook cannot both create the same product.
    await tx.execute(sql`lock table products in share row exclusive mode`);
    let created = 0;
    let updated = 0;
    for (const row of rows) {
      const result = await saveProduct(
        tx,
        { shopifyProductId: row.shopifyProductId, skus: row.sku ? [row.sku] : [], title: row.fields.title },
        row.fields,
      );
      if (result === 'created') created++;
      else updated++;
    }
    return { created, updated, skipped };
  });
}
