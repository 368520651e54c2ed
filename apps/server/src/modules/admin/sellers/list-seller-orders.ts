import { and, desc, eq, inArray } from 'drizzle-orm';
import type { TAdminSellerOrdersQuery, TAdminSellerOrdersResponse } from '@saljportalen/contract';
import type { Db } from '../../../db/client.js';
import { groups, memberships, orders, users } from '../../../db/schema.js';
import { notFound } from '../../../errors.js';
import { oreToSek } from '../../../lib/money.js';
import { orderedWithin, sumOrders } from '../../figures/order-sums.js';

/**
 * One seller's orders, newest first, in one group or across all the seller's groups. The summary
 * covers every matching order, so the web's cards need not add up the page.
 */
export async function listSellerOrders(
  db: Db,
  options: { userId: number; query: TAdminSellerOrdersQuery },
): Promise<TAdminSellerOrdersResponse> {
  const { userId, query } = options;
  const [user] = await db
    .select({ id: users.id, fullName: users.fullName, email: users.email, username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound('Säljaren hittades inte');

  const sellerMemberships = await db
    .select({ id: memberships.id, role: memberships.role, groupId: groups.id, groupName: groups.name })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(and(eq(memberships.userId, userId), query.group_id ? eq(memberships.groupId, query.group_id) : undefined));
  if (query.group_id && sellerMemberships.length === 0) throw notFound('Säljaren finns inte i gruppen');
  const inGroup = query.group_id ? sellerMemberships[0] : undefined;

  const page = { total: 0, limit: query.limit, offset: query.offset };
  const seller = {
    user_id: user.id,
    full_name: user.fullName,
    email: user.email ?? user.username ?? '',
    role: inGroup?.role ?? null,
    is_admin: inGroup ? inGroup.role === 'admin' : sellerMemberships.some((membership) => membership.role === 'admin'),
    group_id: inGroup?.groupId ?? null,
    group_name: inGroup?.groupName ?? null,
    orders_count: 0,
    total_sales: 0,
    total_commission: 0,
  };
  if (sellerMemberships.length === 0) return { seller, items: [], ...page };

  // An order belongs to the group of the membership it is attributed to.
  const groupOfMembership = new Map(sellerMemberships.map((membership) => [membership.id, membership.groupId]));
  const where = and(inArray(orders.membershipId, [...groupOfMembership.keys()]), orderedWithin(query));
  const summary = await sumOrders(db, where);
  const rows = await db
    .select()
    .from(orders)
    .where(where)
    .orderBy(desc(orders.orderedAt), desc(orders.id))
    .limit(query.limit)
    .offset(query.offset);

  return {
    seller: {
      ...seller,
      orders_count: summary?.ordersCount ?? 0,
      total_sales: oreToSek(summary?.salesOre ?? 0),
      total_commission: oreToSek(summary?.commissionOre ?? 0),
    },
    items: rows.map((order) => ({
      order_id: order.id,
      shopify_order_id: order.shopifyOrderId,
      order_name: order.orderName,
      ordered_at: order.orderedAt.toISOString(),
      created_at: order.createdAt.toISOString(),
      subtotal_incl_vat: oreToSek(order.subtotalOre),
      commission_total: oreToSek(order.commissionOre),
      state: order.state,
      group_id: groupOfMembership.get(order.membershipId!)!,
    })),
    ...page,
    total: summary?.total ?? 0,
  };
}
