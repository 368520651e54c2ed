import { and, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type {
  TAdminGroup,
  TAdminGroupListQuery,
  TAdminGroupListResponse,
  TAdminGroupRecord,
  TGroupStatusFilter,
} from '@saljportalen/contract';
import type { Db, Tx } from '../../db/client.js';
import { groupFigures, groups } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { oreToSek } from '../../lib/money.js';
import { groupRollupSums } from '../seller/order-sums.js';

export const groupNotFound = () => notFound('Grupp hittades inte');

type GroupRow = typeof groups.$inferSelect;

export const toGroupRecord = (group: Pick<GroupRow, 'id' | 'name' | 'code' | 'archived' | 'createdAt'>): TAdminGroupRecord => ({
  id: group.id,
  name: group.name,
  group_code: group.code,
  archived: group.archived,
  created_at: group.createdAt.toISOString(),
});

export async function findGroupRecord(db: Db, groupId: number): Promise<TAdminGroupRecord> {
  const [group] = await db.select().from(groups).where(eq(groups.id, groupId));
  if (!group) throw groupNotFound();
  return toGroupRecord(group);
}

/** The group row, locked until the transaction ends, so two admins' changes apply one after the other. */
export async function lockGroup(tx: Tx, groupId: number): Promise<GroupRow> {
  const [group] = await tx.select().from(groups).where(eq(groups.id, groupId)).for('update');
  if (!group) throw groupNotFound();
  return group;
}

export function groupStatusCondition(status: TGroupStatusFilter): SQL | undefined {
  if (status === 'active') return eq(groups.archived, false);
  if (status === 'archived') return eq(groups.archived, true);
  return undefined;
}

export interface GroupFigures {
  salesOre: number;
  commissionOre: number;
  ordersCount: number;
  sellersCount: number;
}

const noFigures: GroupFigures = { salesOre: 0, commissionOre: 0, ordersCount: 0, sellersCount: 0 };

/** Figures of a page of groups: one row each from the groups' rollups (the sums of their orders, their members). */
export async function loadGroupFigures(db: Db, groupIds: number[]): Promise<Map<number, GroupFigures>> {
  const figures = new Map<number, GroupFigures>(groupIds.map((id) => [id, { ...noFigures }]));
  if (groupIds.length === 0) return figures;
  const rows = await db
    .select({ groupId: groupFigures.groupId, ...groupRollupSums(), sellersCount: groupFigures.sellersCount })
    .from(groupFigures)
    .where(inArray(groupFigures.groupId, groupIds));
  for (const { groupId, ...row } of rows) figures.set(groupId, row);
  return figures;
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
});

/** `%` and `_` in a search are literal characters, not wildcards. */
const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * Groups newest first (the ones an admin just created or is setting up), one page with its
 * figures and the exact number of groups that match.
 */
export async function listGroups(db: Db, query: TAdminGroupListQuery): Promise<TAdminGroupListResponse> {
  const search = query.q ? likeContains(query.q) : undefined;
  const where = and(groupStatusCondition(query.status), search ? or(ilike(groups.name, search), ilike(groups.code, search)) : undefined);
  const total = await db.$count(groups, where);
  const page = await db
    .select()
    .from(groups)
    .where(where)
    .orderBy(desc(groups.createdAt), desc(groups.id))
    .limit(query.limit)
    .offset(query.offset);
  const figures = await loadGroupFigures(
    db,
    page.map((group) => group.id),
  );
  return {
    items: page.map((group) => toAdminGroup(group, figures.get(group.id)!)),
    total,
    limit: query.limit,
    offset: query.offset,
  };
}
