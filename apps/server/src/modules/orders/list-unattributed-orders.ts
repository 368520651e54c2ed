import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { TUnattributedOrdersResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, memberships, orders, users } from '../../db/schema.js';
import { oreToSek } from '../../lib/money.js';

/**
 * Orders no personal link code matched, newest first, one page at a time (orders_unattributed_idx).
 * An order carrying the link code of an archived group's seller says whose it was (decision 027).
 */
export async function listUnattributedOrders(db: Db, options: { page: number; pageSize: number }): Promise<TUnattributedOrdersResponse> {
  const [rows, [count]] = await Promise.all([
    db
      .select({
        id: orders.id,
        shopifyOrderId: sql<string>`${orders.shopifyOrderId}::text`,
        orderName: orders.orderName,
        orderedAt: orders.orderedAt,
        subtotalOre: orders.subtotalOre,
        commissionOre: orders.commissionOre,
        state: orders.state,
        refCode: orders.refCode,
        archivedMembershipId: memberships.id,
        archivedSellerName: users.fullName,
        archivedGroupId: groups.id,
        archivedGroupName: groups.name,
      })
      .from(orders)
      .leftJoin(memberships, eq(memberships.linkCode, orders.refCode))
      .leftJoin(groups, and(eq(groups.id, memberships.groupId), eq(groups.archived, true)))
      .leftJoin(users, eq(users.id, memberships.userId))
      .where(isNull(orders.groupId))
      .orderBy(desc(orders.orderedAt), desc(orders.id))
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize),
    db
      .select({ total: sql`count(*)`.mapWith(Number) })
      .from(orders)
      .where(isNull(orders.groupId)),
  ]);
  return {
    items: rows.map((row) => ({
      order_id: row.id,
      shopify_order_id: row.shopifyOrderId,
      order_name: row.orderName,
      ordered_at: row.orderedAt.toISOString(),
      subtotal_incl_vat: oreToSek(row.subtotalOre),
      commission_total: oreToSek(row.commissionOre),
      state: row.state,
      ref_code: row.refCode,
      archived_link:
        row.archivedGroupId !== null && row.archivedMembershipId !== null
          ? {
              membership_id: row.archivedMembershipId,
              seller_name: row.archivedSellerName ?? '',
              group_id: row.archivedGroupId,
              group_name: row.archivedGroupName ?? '',
            }
          : null,
    })),
    total: count?.total ?? 0,
    page: options.page,
    page_size: options.pageSize,
  };
}
