import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { TAdminSellerRow, TGroupStatusFilter, TSellerSort } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, memberships, orders, users } from '../../db/schema.js';
import { stockholmDayStart } from '../../lib/dates.js';
import { oreToSek } from '../../lib/money.js';
import { groupStatusCondition } from '../groups/group-queries.js';
import { orderSums } from '../seller/order-sums.js';

export interface SellerFilter {
  groupId?: number;
  status?: TGroupStatusFilter;
  /** Inclusive Stockholm days on `ordered_at`; they narrow the figures, not the rows. */
  from?: string;
  to?: string;
}

/** Orders placed on the Stockholm days [from, to]: `x >= dayStart(from) and x < dayStart(to, 1)`. */
export function orderedWithin(range: { from?: string; to?: string }): SQL | undefined {
  return and(
    range.from ? gte(orders.orderedAt, stockholmDayStart(range.from)) : undefined,
    range.to ? lt(orders.orderedAt, stockholmDayStart(range.to, 1)) : undefined,
  );
}

function membershipCondition(filter: SellerFilter): SQL | undefined {
  return and(filter.groupId ? eq(memberships.groupId, filter.groupId) : undefined, groupStatusCondition(filter.status ?? 'all'));
}

/**
 * Each membership's figures, aggregated in SQL. With a group or status filter only those
 * memberships' orders are read (through the membership index on orders), not the whole table.
 */
function figuresByMembership(db: Db, filter: SellerFilter) {
  const scoped = filter.groupId !== undefined || (filter.status ?? 'all') !== 'all';
  const membershipsInScope = db
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(membershipCondition(filter));
  const figures = orderSums();
  return db
    .select({
      membershipId: orders.membershipId,
      salesOre: figures.salesOre.as('sales_ore'),
      commissionOre: figures.commissionOre.as('commission_ore'),
      ordersCount: figures.ordersCount.as('orders_count'),
    })
    .from(orders)
    .where(
      and(isNotNull(orders.membershipId), scoped ? inArray(orders.membershipId, membershipsInScope) : undefined, orderedWithin(filter)),
    )
    .groupBy(orders.membershipId)
    .as('figures');
}

const sortColumn = {
  total_sales: 'salesOre',
  total_commission: 'commissionOre',
  orders_count: 'ordersCount',
} as const;

/**
 * Seller rows (one per membership, admins included) with their figures, highest first by `sort`,
 * then by name and membership so that pages never overlap. Without `page` every row is returned
 * (one group's people); with it, one page of the whole list.
 */
export async function selectSellerRows(
  db: Db,
  options: { filter: SellerFilter; sort: TSellerSort; page?: { limit: number; offset: number } },
): Promise<TAdminSellerRow[]> {
  const figures = figuresByMembership(db, options.filter);
  const salesOre = sql<number>`coalesce(${figures.salesOre}, 0)`.mapWith(Number);
  const commissionOre = sql<number>`coalesce(${figures.commissionOre}, 0)`.mapWith(Number);
  const ordersCount = sql<number>`coalesce(${figures.ordersCount}, 0)`.mapWith(Number);
  const sortBy = { salesOre, commissionOre, ordersCount }[sortColumn[options.sort]];

  const query = db
    .select({
      membershipId: memberships.id,
      userId: memberships.userId,
      role: memberships.role,
      fullName: users.fullName,
      email: users.email,
      groupId: groups.id,
      groupName: groups.name,
      groupArchived: groups.archived,
      salesOre,
      commissionOre,
      ordersCount,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .leftJoin(figures, eq(figures.membershipId, memberships.id))
    .where(membershipCondition(options.filter))
    .orderBy(desc(sortBy), asc(users.fullName), asc(memberships.id))
    .$dynamic();
  const rows = options.page ? await query.limit(options.page.limit).offset(options.page.offset) : await query;

  return rows.map((row) => ({
    user_id: row.userId,
    full_name: row.fullName,
    email: row.email,
    group_id: row.groupId,
    group_name: row.groupName,
    orders_count: row.ordersCount,
    total_sales: oreToSek(row.salesOre),
    total_commission: oreToSek(row.commissionOre),
    role: row.role,
    is_admin: row.role === 'admin',
    is_active: !row.groupArchived,
  }));
}

export async function countSellerRows(db: Db, filter: SellerFilter): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(membershipCondition(filter));
  return row?.total ?? 0;
}
