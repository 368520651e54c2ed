import { and, asc, eq, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TAdminSellerRow, TGroupStatusFilter, TSellerSort } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groupFigures, groups, membershipFigures, memberships, orders, users } from '../../db/schema.js';
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

type Page = { limit: number; offset: number };

const sortColumn = {
  total_sales: 'salesOre',
  total_commission: 'commissionOre',
  orders_count: 'ordersCount',
} as const;

const rollupColumns = {
  salesOre: membershipFigures.salesOre,
  commissionOre: membershipFigures.commissionOre,
  ordersCount: membershipFigures.ordersCount,
};

/** Highest first, in the order of the rollup's indexes (`desc nulls last`), so they can give the order. */
const highestFirst = (column: SQL | AnyPgColumn) => sql`${column} desc nulls last`;

/**
 * All-time figures come from the memberships' rollups. For a page of the whole list, the
 * figure of the page's last row is found first through the rollup's index on that figure; every
 * row of the page has at least that figure, so only those rows are joined and ordered, however
 * many memberships there are. (A page past the end has no such row and orders them all.)
 */
async function pageFloor(db: Db, options: { filter: SellerFilter; sort: TSellerSort; page?: Page }): Promise<SQL | undefined> {
  if (!options.page || options.filter.groupId !== undefined) return undefined;
  const figure = rollupColumns[sortColumn[options.sort]];
  const [edge] = await db
    .select({ value: figure })
    .from(membershipFigures)
    .innerJoin(memberships, eq(memberships.id, membershipFigures.membershipId))
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(membershipCondition(options.filter))
    .orderBy(highestFirst(figure))
    .limit(1)
    .offset(options.page.offset + options.page.limit - 1);
  return edge ? gte(figure, edge.value) : undefined;
}

/**
 * Seller rows (one per membership, admins included) with their figures, highest first by `sort`,
 * then by name and membership so that pages never overlap. Without `page` every row is returned
 * (one group's people); with it, one page of the whole list. All-time figures are read from the
 * rollups; a period's are summed from its orders.
 */
export async function selectSellerRows(
  db: Db,
  options: { filter: SellerFilter; sort: TSellerSort; page?: Page },
): Promise<TAdminSellerRow[]> {
  const period = options.filter.from || options.filter.to ? figuresByMembership(db, options.filter) : undefined;
  const source = period ?? rollupColumns;
  const salesOre = sql<number>`coalesce(${source.salesOre}, 0)`.mapWith(Number);
  const commissionOre = sql<number>`coalesce(${source.commissionOre}, 0)`.mapWith(Number);
  const ordersCount = sql<number>`coalesce(${source.ordersCount}, 0)`.mapWith(Number);
  const sortBy = period ? { salesOre, commissionOre, ordersCount }[sortColumn[options.sort]] : rollupColumns[sortColumn[options.sort]];
  const floor = period ? undefined : await pageFloor(db, options);

  const base = db
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
    .$dynamic();
  const query = (
    period
      ? base.leftJoin(period, eq(period.membershipId, memberships.id))
      : base.leftJoin(membershipFigures, eq(membershipFigures.membershipId, memberships.id))
  )
    .where(and(membershipCondition(options.filter), floor))
    .orderBy(highestFirst(sortBy), asc(users.fullName), asc(memberships.id));
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

/** The number of seller rows: the members of the groups in scope, counted by the groups' rollups. */
export async function countSellerRows(db: Db, filter: SellerFilter): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${groupFigures.sellersCount}), 0)`.mapWith(Number) })
    .from(groups)
    .innerJoin(groupFigures, eq(groupFigures.groupId, groups.id))
    .where(and(filter.groupId ? eq(groups.id, filter.groupId) : undefined, groupStatusCondition(filter.status ?? 'all')));
  return row?.total ?? 0;
}
