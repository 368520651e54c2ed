import { and, asc, eq, inArray, isNotNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TAdminSellerRow, TGroupStatusFilter, TSellerSort } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groupFigures, groups, membershipFigures, memberships, orders, users } from '../../db/schema.js';
import { oreToSek } from '../../lib/money.js';
import { groupStatusCondition } from '../../db/group-status.js';
import { orderedWithin, orderSums, rollupFigures, summedSellers } from './order-sums.js';

export interface SellerFilter {
  groupId?: number;
  status?: TGroupStatusFilter;
  /** Inclusive Stockholm days on `ordered_at`; they narrow the figures, not the rows. */
  from?: string;
  to?: string;
}

function membershipCondition(filter: Pick<SellerFilter, 'status'> & { groupId?: number | Placeholder }): SQL | undefined {
  return and(
    filter.groupId !== undefined ? eq(memberships.groupId, filter.groupId) : undefined,
    groupStatusCondition(filter.status ?? 'all'),
  );
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

/** Page values: numbers, or placeholders in a prepared statement. */
type PageValues = { limit: number | Placeholder; offset: number | Placeholder; edgeOffset: number | Placeholder };

/**
 * All-time figures come from the memberships' rollups. For a page, the figure of the page's last
 * row is found first (a subquery, through the rollup's index on that figure, or on the group and
 * that figure); every row of the page has at least that figure, so only those rows are joined and
 * ordered, however many memberships there are. Past the end there is no such row, and every row
 * qualifies.
 */
function pageFloor(db: Db, filter: Parameters<typeof membershipCondition>[0], sort: TSellerSort, page: PageValues): SQL | undefined {
  const figure = rollupColumns[sortColumn[sort]];
  const rollups = db.select({ value: figure }).from(membershipFigures).$dynamic();
  const inScope =
    filter.groupId !== undefined
      ? rollups.where(eq(membershipFigures.groupId, filter.groupId))
      : rollups
          .innerJoin(memberships, eq(memberships.id, membershipFigures.membershipId))
          .innerJoin(groups, eq(groups.id, memberships.groupId))
          .where(membershipCondition(filter));
  const edge = inScope.orderBy(highestFirst(figure)).limit(1).offset(page.edgeOffset);
  const atLeastEdge = sql`${figure} >= coalesce((${edge}), ${LOWEST_BIGINT})`;
  // Named on the rollup too, so that the group's rows are read from its (group, figure) index.
  return filter.groupId !== undefined ? and(eq(membershipFigures.groupId, filter.groupId), atLeastEdge) : atLeastEdge;
}

const LOWEST_BIGINT = sql.raw('-9223372036854775808');

/** The number of seller rows: the members of the groups in scope, counted by the groups' rollups. */
function sellerCount(db: Db, filter: Parameters<typeof membershipCondition>[0]) {
  const total = summedSellers();
  const inScope = and(
    filter.groupId !== undefined ? eq(groups.id, filter.groupId) : undefined,
    groupStatusCondition(filter.status ?? 'all'),
  );
  // Every group counts: no need to look at the groups themselves.
  if (!inScope) return db.select({ total }).from(groupFigures);
  return db.select({ total }).from(groups).innerJoin(groupFigures, eq(groupFigures.groupId, groups.id)).where(inScope);
}

export async function countSellerRows(db: Db, filter: SellerFilter): Promise<number> {
  const [row] = await sellerCount(db, filter);
  return row?.total ?? 0;
}

const toSellerRow = (row: {
  userId: number;
  fullName: string;
  email: string | null;
  username: string | null;
  groupId: number;
  groupName: string;
  groupArchived: boolean;
  role: 'seller' | 'admin';
  salesOre: number;
  commissionOre: number;
  ordersCount: number;
}): TAdminSellerRow => ({
  user_id: row.userId,
  full_name: row.fullName,
  // A class-list pupil has no address: the admin lists show the username there (issue 31).
  email: row.email ?? row.username ?? '',
  group_id: row.groupId,
  group_name: row.groupName,
  orders_count: row.ordersCount,
  total_sales: oreToSek(row.salesOre),
  total_commission: oreToSek(row.commissionOre),
  role: row.role,
  is_admin: row.role === 'admin',
  is_active: !row.groupArchived,
});

interface SellerRowsOptions {
  filter: SellerFilter;
  sort: TSellerSort;
  page: Page;
}

/**
 * The query of a list of seller rows. Its values may be placeholders: the all-time lists (every
 * admin page without a period) are prepared once per shape, since their planning took longer than
 * their reading.
 */
function sellerRowsQuery(
  db: Db,
  options: { filter: Omit<SellerFilter, 'groupId'> & { groupId?: number | Placeholder }; sort: TSellerSort; page: PageValues },
) {
  const period = options.filter.from || options.filter.to ? figuresByMembership(db, options.filter as SellerFilter) : undefined;
  const source = period ?? rollupColumns;
  const { salesOre, commissionOre, ordersCount } = rollupFigures(source);
  const sortBy = period ? { salesOre, commissionOre, ordersCount }[sortColumn[options.sort]] : rollupColumns[sortColumn[options.sort]];
  const floor = period ? undefined : pageFloor(db, options.filter, options.sort, options.page);

  const base = db
    .select({
      membershipId: memberships.id,
      userId: memberships.userId,
      role: memberships.role,
      fullName: users.fullName,
      email: users.email,
      username: users.username,
      groupId: groups.id,
      groupName: groups.name,
      groupArchived: groups.archived,
      salesOre,
      commissionOre,
      ordersCount,
      total: sql<number>`(${sellerCount(db, options.filter)})`.mapWith(Number),
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .$dynamic();
  return (
    period
      ? base.leftJoin(period, eq(period.membershipId, memberships.id))
      : base.leftJoin(membershipFigures, eq(membershipFigures.membershipId, memberships.id))
  )
    .where(and(membershipCondition(options.filter), floor))
    .orderBy(highestFirst(sortBy), asc(users.fullName), asc(memberships.id))
    .limit(options.page.limit)
    .offset(options.page.offset);
}

const allTimeQueries = new WeakMap<Db, Map<string, ReturnType<ReturnType<typeof sellerRowsQuery>['prepare']>>>();

/** The prepared all-time query of this shape (sort, status, one group or all). */
function allTimeQuery(db: Db, options: SellerRowsOptions) {
  const shape = [options.sort, options.filter.status ?? 'all', options.filter.groupId === undefined ? 'all' : 'group'];
  const key = `seller_rows_${shape.join('_')}`;
  let byShape = allTimeQueries.get(db);
  if (!byShape) allTimeQueries.set(db, (byShape = new Map()));
  let prepared = byShape.get(key);
  if (!prepared) {
    prepared = sellerRowsQuery(db, {
      filter: { status: options.filter.status, groupId: options.filter.groupId === undefined ? undefined : sql.placeholder('groupId') },
      sort: options.sort,
      page: { limit: sql.placeholder('limit'), offset: sql.placeholder('offset'), edgeOffset: sql.placeholder('edgeOffset') },
    }).prepare(key);
    byShape.set(key, prepared);
  }
  return prepared;
}

/**
 * One page of seller rows (one per membership, admins included) with their figures, highest first
 * by `sort`, then by name and membership so that pages never overlap, and the exact number of rows
 * in the whole list, read in the same statement. All-time figures are read from the rollups; a
 * period's are summed from its orders.
 */
export async function selectSellerRows(db: Db, options: SellerRowsOptions): Promise<{ items: TAdminSellerRow[]; total: number }> {
  const page = { ...options.page, edgeOffset: options.page.offset + options.page.limit - 1 };
  const rows =
    options.filter.from || options.filter.to
      ? await sellerRowsQuery(db, { ...options, page })
      : await allTimeQuery(db, options).execute({ groupId: options.filter.groupId, ...page });
  // A page past the end has no row to carry the total.
  const total = rows[0]?.total ?? (await countSellerRows(db, options.filter));
  return { items: rows.map(toSellerRow), total };
}
