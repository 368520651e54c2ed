import { Readable, pipeline } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { stringify } from 'csv-stringify';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { groups, memberships, orderLines, orders, users } from '../../db/schema.js';
import { formatDateTime } from '../../lib/format.js';
import { groupNotFound } from './group-queries.js';

/** About 1 000 orders (a few thousand lines) in memory at a time, two batches at most, whatever the group's size. */
const ORDERS_PER_BATCH = 1_000;

const lineKindText = {
  sale: 'Försäljning',
  refund: 'Återbetalning',
  cancellation: 'Annullering',
  transfer: 'Flyttad försäljning',
} as const;

const COLUMNS = [
  { key: 'seller', header: 'Säljare' },
  { key: 'role', header: 'Roll' },
  { key: 'order', header: 'Order' },
  { key: 'orderedAt', header: 'Orderdatum' },
  { key: 'kind', header: 'Radtyp' },
  { key: 'product', header: 'Produkt' },
  { key: 'quantity', header: 'Antal' },
  { key: 'amountOre', header: 'Belopp inkl. moms (kr)' },
  { key: 'commissionOre', header: 'Provision (kr)' },
  { key: 'bookedAt', header: 'Bokförd' },
  { key: 'payoutId', header: 'Avräkning' },
] as const;

export type CsvRecord = Record<(typeof COLUMNS)[number]['key'], string | number>;

const MONEY_COLUMNS = new Set<string>(['amountOre', 'commissionOre']);

/** Öre as the number Swedish Excel reads: decimal comma, no grouping, "-149,50". */
export function oreAsDecimalComma(ore: number): string {
  const sign = ore < 0 ? '-' : '';
  const absolute = Math.abs(ore);
  return `${sign}${Math.floor(absolute / 100)},${String(absolute % 100).padStart(2, '0')}`;
}

/**
 * Every line start of a text (the first, and each after CR, LF or CRLF) followed by a character
 * that makes Excel, LibreOffice or Numbers run the line as a formula: = + - @ tab CR (OWASP CSV
 * injection) and their full-width forms, which Numbers folds into them.
 */
const LINE_STARTING_A_FORMULA = /(?<=^|\r|\n)(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/g;

/**
 * A text cell Excel shows as written and never runs: an apostrophe before the first line and
 * before every further line inside the cell that would start a formula. Names stored before
 * names were cleaned of control characters (contract `toSingleLineText`) can still hold line breaks.
 */
export function neutraliseFormulas(text: string): string {
  return text.replace(LINE_STARTING_A_FORMULA, "'");
}

/**
 * The export's CSV writer (records in, text out): Swedish Excel's dialect. A text cell holding CR,
 * LF, a quote or `;` is quoted (a bare CR too: Excel ends a row at any line break outside quotes),
 * and no line of a text cell can start a formula; numbers are written as numbers.
 */
export function groupCsvWriter() {
  return stringify({
    bom: true,
    delimiter: ';',
    record_delimiter: 'windows',
    // With a record delimiter given, csv-stringify would quote only a field holding CRLF itself.
    quote_record_delimiter: true,
    header: true,
    columns: COLUMNS.map((column) => ({ key: column.key, header: column.header })),
    cast: {
      string: neutraliseFormulas,
      number: (value, context) => (MONEY_COLUMNS.has(String(context.column)) ? oreAsDecimalComma(value) : String(value)),
    },
  });
}

interface BatchRow {
  order_id: number;
  ordered_ms: number;
  ordered_key: string;
  order_name: string | null;
  shopify_order_id: string;
  seller_name: string | null;
  role: 'seller' | 'admin' | null;
  line_id: number | null;
  kind: keyof typeof lineKindText | null;
  title: string | null;
  quantity: number | null;
  amount_ore: number | null;
  commission_ore: number | null;
  booked_ms: number | null;
  payout_id: number | null;
}

/**
 * One batch of the group's orders after `after`, each with its lines (an order without lines once,
 * with none), in one query: the orders by (ordered_at, id), their lines by id. Keyset pagination on
 * (ordered_at, id) reads the orders_group_ordered index from where the last batch ended, so every
 * batch costs the same; the key is carried as the database's own text of the timestamp, since a
 * JavaScript Date would drop its microseconds and skip or repeat orders. Times come as epoch
 * milliseconds, money as exact numbers (öre, far below 2^53).
 */
async function orderBatch(db: Db, groupId: number, after: { orderedAt: string; id: number } | undefined): Promise<BatchRow[]> {
  const result = await db.execute(sql`
    with batch as (
      select o.id, o.ordered_at, o.order_name, o.shopify_order_id, u.full_name as seller_name, m.role
      from ${orders} o
      left join ${memberships} m on m.id = o.membership_id
      left join ${users} u on u.id = m.user_id
      where o.group_id = ${groupId}
        ${after ? sql`and o.ordered_at >= ${after.orderedAt}::timestamptz and (o.ordered_at, o.id) > (${after.orderedAt}::timestamptz, ${after.id})` : sql``}
      order by o.ordered_at, o.id
      limit ${ORDERS_PER_BATCH}
    )
    select b.id::float8 as order_id, (extract(epoch from b.ordered_at) * 1000)::float8 as ordered_ms, b.ordered_at::text as ordered_key,
           b.order_name, b.shopify_order_id::text as shopify_order_id,
           -- A line says whose it is: a sale moved after a payout keeps its settled lines with the first pupil (decision 067).
           case when l.id is null then b.seller_name else lu.full_name end as seller_name,
           case when l.id is null then b.role::text else lm.role::text end as role,
           l.id::float8 as line_id, l.kind::text as kind, l.title, l.quantity, l.amount_ore::float8 as amount_ore,
           l.commission_ore::float8 as commission_ore, (extract(epoch from l.booked_at) * 1000)::float8 as booked_ms, l.payout_id
    from batch b left join ${orderLines} l on l.order_id = b.id
    left join ${memberships} lm on lm.id = l.membership_id
    left join ${users} lu on lu.id = lm.user_id
    order by b.ordered_at, b.id, l.id`);
  return (result as unknown as { rows: BatchRow[] }).rows;
}

/** The group's order lines in order date order, reading the next batch while this one is written. */
async function* groupLineRecords(db: Db, groupId: number): AsyncGenerator<CsvRecord> {
  let next: Promise<BatchRow[]> | undefined = orderBatch(db, groupId, undefined);
  while (next) {
    const rows = await next;
    next = undefined;
    let ordersInBatch = 0;
    let lastOrderId: number | undefined;
    for (const row of rows) {
      if (row.order_id === lastOrderId) continue;
      ordersInBatch++;
      lastOrderId = row.order_id;
    }
    if (ordersInBatch === ORDERS_PER_BATCH) {
      const last = rows[rows.length - 1]!;
      next = orderBatch(db, groupId, { orderedAt: last.ordered_key, id: last.order_id });
      // Its failure is reported when it is awaited, not as an unhandled rejection meanwhile.
      next.catch(() => undefined);
    }
    for (const row of rows) {
      if (row.line_id === null) continue;
      yield {
        seller: row.seller_name ?? 'Okänd säljare',
        role: row.role === 'admin' ? 'Admin' : row.role === 'seller' ? 'Säljare' : '',
        order: row.order_name ?? row.shopify_order_id,
        orderedAt: formatDateTime(row.ordered_ms),
        kind: lineKindText[row.kind!],
        product: row.title!,
        quantity: row.quantity!,
        amountOre: row.amount_ore!,
        commissionOre: row.commission_ore!,
        bookedAt: formatDateTime(row.booked_ms!),
        payoutId: row.payout_id ?? '',
      };
    }
  }
}

/**
 * Spec §7 export: one row per order line, for Swedish Excel (UTF-8 with BOM, `;`, decimal comma,
 * Stockholm time) and safe to open: a line of a text cell starting with = + - @ tab or CR gets a
 * leading apostrophe, and a cell with a line break is quoted, so it stays one cell of one row.
 * Amounts are real numbers, so a negative refund stays a number Excel can add up. The rows are
 * streamed from batches; the route records the export in the audit log (plugins/personal-data-exports.ts).
 */
export async function exportGroupCsv(
  db: Db,
  options: { groupId: number; log: FastifyBaseLogger },
): Promise<{ filename: string; stream: Readable }> {
  const [group] = await db.select({ id: groups.id }).from(groups).where(eq(groups.id, options.groupId));
  if (!group) throw groupNotFound();

  const stream = pipeline(Readable.from(groupLineRecords(db, group.id)), groupCsvWriter(), (error) => {
    if (!error) return;
    // A closed browser tab ends the stream early too; only a failing query is an error.
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') {
      options.log.info({ groupId: group.id }, 'CSV-exporten avbröts av mottagaren');
    } else {
      options.log.error({ err: error, groupId: group.id }, 'CSV-exporten avbröts');
    }
  });
  return { filename: `grupp-${group.id}.csv`, stream };
}
