import { Readable, pipeline } from 'node:stream';
import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import { stringify } from 'csv-stringify';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { groups, memberships, orderLines, orders, users } from '../../db/schema.js';
import { formatDateTime } from '../../lib/format.js';
import { writeAudit } from '../audit/write-audit.js';
import { groupNotFound } from './group-queries.js';

/** About 500 orders (a few thousand lines) in memory at a time, whatever the group's size. */
const ORDERS_PER_BATCH = 500;

const lineKindText = { sale: 'Försäljning', refund: 'Återbetalning', cancellation: 'Annullering' } as const;

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
 * The export's CSV writer (records in, text out): Swedish Excel's dialect, and a text cell that
 * Excel would run as a formula gets a leading apostrophe; numbers are written as numbers.
 */
export function groupCsvWriter() {
  return stringify({
    bom: true,
    delimiter: ';',
    record_delimiter: 'windows',
    header: true,
    columns: COLUMNS.map((column) => ({ key: column.key, header: column.header })),
    escape_formulas: true,
    cast: {
      number: (value, context) => (MONEY_COLUMNS.has(String(context.column)) ? oreAsDecimalComma(value) : String(value)),
    },
  });
}

/**
 * The group's order lines in order date order. Keyset pagination over the group's orders on
 * (ordered_at, id) reads the orders_group_ordered index from where the last batch ended, so every
 * batch costs the same; the key is carried as the database's own text of the timestamp, since a
 * JavaScript Date would drop its microseconds and skip or repeat orders.
 */
async function* groupLineRecords(db: Db, groupId: number): AsyncGenerator<CsvRecord> {
  let after: { orderedAt: string; id: number } | undefined;
  for (;;) {
    const batch = await db
      .select({
        id: orders.id,
        orderedAt: orders.orderedAt,
        orderedAtKey: sql<string>`${orders.orderedAt}::text`,
        orderName: orders.orderName,
        shopifyOrderId: orders.shopifyOrderId,
        sellerName: users.fullName,
        role: memberships.role,
      })
      .from(orders)
      .leftJoin(memberships, eq(memberships.id, orders.membershipId))
      .leftJoin(users, eq(users.id, memberships.userId))
      .where(
        and(
          eq(orders.groupId, groupId),
          after
            ? and(
                gte(orders.orderedAt, sql`${after.orderedAt}::timestamptz`),
                sql`(${orders.orderedAt}, ${orders.id}) > (${after.orderedAt}::timestamptz, ${after.id})`,
              )
            : undefined,
        ),
      )
      .orderBy(asc(orders.orderedAt), asc(orders.id))
      .limit(ORDERS_PER_BATCH);
    if (batch.length === 0) return;

    const orderIds = batch.map((order) => order.id);
    const lines = await db.select().from(orderLines).where(inArray(orderLines.orderId, orderIds)).orderBy(asc(orderLines.id));
    // Rows repeat the same minutes (an order's lines, a sale booked when it was ordered), and
    // zone conversion is the slowest step per row.
    const minuteText = new Map<number, string>();
    const stockholmMinute = (instant: Date) => {
      const minute = Math.floor(instant.getTime() / 60_000);
      let text = minuteText.get(minute);
      if (text === undefined) minuteText.set(minute, (text = formatDateTime(instant)));
      return text;
    };
    const linesByOrder = new Map<number, (typeof lines)[number][]>();
    for (const line of lines) {
      const ofOrder = linesByOrder.get(line.orderId);
      if (ofOrder) ofOrder.push(line);
      else linesByOrder.set(line.orderId, [line]);
    }

    for (const order of batch) {
      for (const line of linesByOrder.get(order.id) ?? []) {
        yield {
          seller: order.sellerName ?? 'Okänd säljare',
          role: order.role === 'admin' ? 'Admin' : order.role === 'seller' ? 'Säljare' : '',
          order: order.orderName ?? String(order.shopifyOrderId),
          orderedAt: stockholmMinute(order.orderedAt),
          kind: lineKindText[line.kind],
          product: line.title,
          quantity: line.quantity,
          amountOre: line.amountOre,
          commissionOre: line.commissionOre,
          bookedAt: stockholmMinute(line.bookedAt),
          payoutId: line.payoutId ?? '',
        };
      }
    }
    const last = batch[batch.length - 1]!;
    after = { orderedAt: last.orderedAtKey, id: last.id };
    if (batch.length < ORDERS_PER_BATCH) return;
  }
}

/**
 * Spec §7 export: one row per order line, for Swedish Excel (UTF-8 with BOM, `;`, decimal comma,
 * Stockholm time) and safe to open: a text cell starting with = + - @ tab or CR gets a leading
 * apostrophe. Amounts are real numbers, so a negative refund stays a number Excel can add up.
 * The rows are streamed from batches; the export is recorded in the audit log (it hands out
 * personal data).
 */
export async function exportGroupCsv(
  db: Db,
  options: { actorUserId: number; groupId: number; log: FastifyBaseLogger },
): Promise<{ filename: string; stream: Readable }> {
  const [group] = await db.select({ id: groups.id }).from(groups).where(eq(groups.id, options.groupId));
  if (!group) throw groupNotFound();
  await writeAudit(db, { actorUserId: options.actorUserId, action: 'group.export', targetType: 'group', targetId: group.id });

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
