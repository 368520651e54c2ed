import { and, count, desc, eq, getTableColumns, ilike, or, sql } from 'drizzle-orm';
import type { TAdminGroup, TAdminGroupListQuery, TAdminGroupListResponse, TGroupStatusFilter } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groupStatusCondition } from '../../db/group-status.js';
import { prepared } from '../../db/prepared.js';
import { groupFigures, groups } from '../../db/schema.js';
import { oreToSek } from '../../lib/money.js';
import { rollupFigures } from './order-sums.js';
import { storedGoal, toGroupGoal } from './group-goal.js';

type GroupRow = typeof groups.$inferSelect;

export interface GroupFigures {
  salesOre: number;
  commissionOre: number;
  ordersCount: number;
  sellersCount: number;
}

export const toAdminGroup = (group: GroupRow, figures: GroupFigures): TAdminGroup => ({
  id: group.id,
  name: group.name,
  code: group.code,
  archived: group.archived,
  created_at: group.createdAt.toISOString(),
  sellers_count: figures.sellersCount,
  total_sales: oreToSek(figures.salesOre),
  total_commission: oreToSek(figures.commissionOre),
  goal: toGroupGoal(storedGoal(group)),
});

/** `%` and `_` in a search are literal characters, not wildcards. */
const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** A group with its rollup's figures, in one row. */
const groupWithFigures = {
  group: getTableColumns(groups),
  ...rollupFigures(groupFigures),
  sellersCount: sql<number>`coalesce(${groupFigures.sellersCount}, 0)`.mapWith(Number),
};

/** One group and its figures (the admin's group detail), prepared once. */
export const groupWithFiguresQuery = prepared((db) =>
  db
    .select(groupWithFigures)
    .from(groups)
    .leftJoin(groupFigures, eq(groupFigures.groupId, groups.id))
    .where(eq(groups.id, sql.placeholder('groupId')))
    .prepare('admin_group_with_figures'),
);

/**
 * The group list's two queries for one shape of filter (status, with or without a search), each
 * prepared once: the exact count, and the page with its figures joined from the rollups.
 */
const groupListQueries = new WeakMap<Db, Map<string, ReturnType<typeof buildGroupListQueries>>>();

function buildGroupListQueries(db: Db, status: TGroupStatusFilter, searching: boolean) {
  const search = sql.placeholder('search');
  const where = and(groupStatusCondition(status), searching ? or(ilike(groups.name, search), ilike(groups.code, search)) : undefined);
  const name = `admin_groups_${status}_${searching ? 'search' : 'all'}`;
  return {
    count: db.select({ total: count() }).from(groups).where(where).prepare(`${name}_count`),
    page: db
      .select(groupWithFigures)
      .from(groups)
      .leftJoin(groupFigures, eq(groupFigures.groupId, groups.id))
      .where(where)
      .orderBy(desc(groups.createdAt), desc(groups.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(`${name}_page`),
  };
}

/**
 * Groups newest first (the ones an admin just created or is setting up), one page with its
 * figures and the exact number of groups that match.
 */
export async function listGroups(db: Db, query: TAdminGroupListQuery): Promise<TAdminGroupListResponse> {
  const key = `${query.status}:${Boolean(query.q)}`;
  let byShape = groupListQueries.get(db);
  if (!byShape) groupListQueries.set(db, (byShape = new Map()));
  let queries = byShape.get(key);
  if (!queries) byShape.set(key, (queries = buildGroupListQueries(db, query.status, Boolean(query.q))));
  const values = { search: query.q ? likeContains(query.q) : undefined, limit: query.limit, offset: query.offset };
  const [counted] = await queries.count.execute(values);
  const page = await queries.page.execute(values);
  return {
    items: page.map(({ group, ...figures }) => toAdminGroup(group, figures)),
    total: counted?.total ?? 0,
    limit: query.limit,
    offset: query.offset,
  };
}
