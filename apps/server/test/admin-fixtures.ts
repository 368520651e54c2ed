/**
 * Helpers for the superadmin API tests: straight SQL over the tables (the independent side of
 * every figure check) and orders written the way the order sync writes them.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../src/db/client.js';
import { orderLines, orders } from '../src/db/schema.js';
import { commissionOre } from '../src/lib/money.js';

/** Rows of a raw query; both drivers answer with `{rows}`. */
export async function sqlRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export async function groupIdByCode(db: Db, code: string): Promise<number> {
  const [row] = await sqlRows<{ id: number }>(db, sql`select id from groups where code = ${code}`);
  if (!row) throw new Error(`ingen grupp med koden ${code}`);
  return Number(row.id);
}

/**
 * The addresses of a group's seeded sellers, oldest first: a test that changes an account takes one
 * of its own by index, so tests in one file never share one.
 */
export async function sellerEmailsOf(db: Db, groupCode: string): Promise<string[]> {
  const rows = await sqlRows<{ email: string }>(
    db,
    sql`select u.email from users u join memberships m on m.user_id = u.id join groups g on g.id = m.group_id
        where g.code = ${groupCode} and m.role = 'seller' order by u.id`,
  );
  return rows.map((row) => row.email);
}

export async function membershipOf(db: Db, email: string, groupCode: string): Promise<{ id: number; userId: number; groupId: number }> {
  const [row] = await sqlRows<{ id: number; user_id: number; group_id: number }>(
    db,
    sql`select m.id, m.user_id, m.group_id from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
        where lower(u.email) = ${email.toLowerCase()} and g.code = ${groupCode}`,
  );
  if (!row) throw new Error(`${email} är inte med i ${groupCode}`);
  return { id: Number(row.id), userId: Number(row.user_id), groupId: Number(row.group_id) };
}

let nextShopifyOrderId = 9_100_000_000_000;

/**
 * One order with its lines, keeping the rule every figure rests on: the order's subtotal and
 * commission are the sums of its lines (refund and cancellation lines are negative).
 */
export async function insertOrder(
  db: Db,
  options: {
    membership: { id: number; groupId: number } | null;
    groupId?: number;
    orderedAt: Date;
    state?: string;
    orderName?: string | null;
    lines: { amountOre: number; kind?: 'sale' | 'refund' | 'cancellation'; title?: string; quantity?: number; bookedAt?: Date }[];
  },
): Promise<{ id: number; subtotalOre: number; commissionOre: number; lineIds: number[] }> {
  const groupId = options.membership?.groupId ?? options.groupId ?? null;
  const lines = options.lines.map((line) => ({ ...line, commissionOre: commissionOre(line.amountOre, 2500) }));
  const subtotalOre = lines.reduce((sum, line) => sum + line.amountOre, 0);
  const orderCommissionOre = lines.reduce((sum, line) => sum + line.commissionOre, 0);
  const shopifyOrderId = nextShopifyOrderId++;
  const [order] = await db
    .insert(orders)
    .values({
      shopifyOrderId: String(shopifyOrderId),
      orderName: options.orderName === undefined ? `#T${shopifyOrderId % 100000}` : options.orderName,
      orderedAt: options.orderedAt,
      membershipId: options.membership?.id ?? null,
      groupId,
      subtotalOre,
      commissionOre: orderCommissionOre,
      state: options.state ?? 'paid',
    })
    .returning({ id: orders.id });
  const inserted = await db
    .insert(orderLines)
    .values(
      lines.map((line, index) => ({
        orderId: order!.id,
        kind: line.kind ?? 'sale',
        shopifyLineId: String(shopifyOrderId * 10 + index),
        title: line.title ?? 'Bivaxdukar 3-pack',
        quantity: line.quantity ?? 1,
        amountOre: line.amountOre,
        commissionOre: line.commissionOre,
        groupId,
        membershipId: options.membership?.id ?? null,
        bookedAt: line.bookedAt ?? options.orderedAt,
      })),
    )
    .returning({ id: orderLines.id });
  return { id: order!.id, subtotalOre, commissionOre: orderCommissionOre, lineIds: inserted.map((line) => line.id) };
}

export interface SqlFigures {
  sales_ore: number;
  commission_ore: number;
  orders_count: number;
}

/** The figure rules of every engineer, straight from the orders table: net sums, cancelled orders not counted. */
export async function figuresFromOrders(db: Db, where: SQL): Promise<SqlFigures> {
  const [row] = await sqlRows<Record<keyof SqlFigures, string | number>>(
    db,
    sql`select coalesce(sum(subtotal_ore), 0) as sales_ore, coalesce(sum(commission_ore), 0) as commission_ore,
               count(*) filter (where state <> 'cancelled') as orders_count
        from orders where ${where}`,
  );
  return { sales_ore: Number(row!.sales_ore), commission_ore: Number(row!.commission_ore), orders_count: Number(row!.orders_count) };
}

/** Sums SEK amounts as öre, so that adding up many rows does not drift. */
export const sumSek = (amounts: number[]) => amounts.reduce((sum, amount) => sum + Math.round(amount * 100), 0) / 100;
