import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { TClassOrdersResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { memberships, orderLines, orders, users } from '../../db/schema.js';
import { forbidden } from '../../errors.js';
import { oreToSek } from '../../lib/money.js';
import { actsForGroup } from '../group-members/group-admin-condition.js';

/** The class's orders for its admin (and a superadmin), newest first, with whom each counts for. */
export async function listClassOrders(
  db: Db,
  options: { actorUserId: number; groupId: number; page: number; pageSize: number },
): Promise<TClassOrdersResponse> {
  const inGroup = and(eq(orders.groupId, options.groupId), actsForGroup(db, options.actorUserId, options.groupId));
  const [counted] = await db.select({ total: count() }).from(orders).where(inGroup);
  const total = counted?.total ?? 0;
  if (total === 0) {
    const [allowed] = await db
      .select({ ok: users.id })
      .from(users)
      .where(and(eq(users.id, options.actorUserId), actsForGroup(db, options.actorUserId, options.groupId)));
    if (!allowed) throw forbidden('Endast gruppens administratörer kan se klassens ordrar');
  }
  const rows = await db
    .select({
      id: orders.id,
      orderName: orders.orderName,
      orderedAt: orders.orderedAt,
      membershipId: orders.membershipId,
      sellerName: users.fullName,
      subtotalOre: orders.subtotalOre,
      commissionOre: orders.commissionOre,
      state: orders.state,
      inPayout: sql<boolean>`exists (select 1 from ${orderLines} where ${orderLines.orderId} = ${orders.id} and ${orderLines.payoutId} is not null)`,
    })
    .from(orders)
    .leftJoin(memberships, eq(memberships.id, orders.membershipId))
    .leftJoin(users, eq(users.id, memberships.userId))
    .where(inGroup)
    .orderBy(desc(orders.orderedAt), desc(orders.id))
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize);
  return {
    items: rows.map((row) => ({
      order_id: row.id,
      order_name: row.orderName,
      ordered_at: row.orderedAt.toISOString(),
      membership_id: row.membershipId,
      seller_name: row.sellerName,
      subtotal_incl_vat: oreToSek(row.subtotalOre),
      commission_total: oreToSek(row.commissionOre),
      state: row.state,
      in_payout: Boolean(row.inPayout),
    })),
    total,
    page: options.page,
    page_size: options.pageSize,
  };
}
