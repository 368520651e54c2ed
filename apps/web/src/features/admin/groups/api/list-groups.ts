import { useQuery } from '@tanstack/react-query';
import type { TAdminGroup, TAdminGroupListResponse, TGroupGoal, TGroupStatusFilter } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { readList, readNumber, readString } from '@/lib/tolerant-readers';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

export interface GroupListParams {
  status: TGroupStatusFilter;
  q?: string;
  limit: number;
  offset: number;
}

export interface GroupList {
  items: TAdminGroup[];
  total: number;
}

/** A listed group under any of the tolerated field names (spec §3). */
export function readGroupRow(raw: Record<string, unknown>): TAdminGroup {
  return {
    id: readNumber(raw, 'id', 'group_id', 'groupId'),
    name: readString(raw, 'name', 'group_name', 'groupName') ?? '',
    code: readString(raw, 'code', 'group_code', 'groupCode') ?? '',
    archived: raw.archived === true || raw.is_archived === true || raw.status === 'archived',
    created_at: readString(raw, 'created_at', 'createdAt') ?? '',
    sellers_count: readNumber(raw, 'sellers_count', 'members_count', 'sellersCount'),
    total_sales: readNumber(raw, 'total_sales', 'sales', 'sales_total', 'totalSales'),
    total_commission: readNumber(raw, 'total_commission', 'commission', 'commission_total', 'totalCommission'),
    goal: readGoal(raw.goal),
  };
}

/** The class goal (issue 20), when the answer has a whole one. */
function readGoal(raw: unknown): TGroupGoal | null {
  if (!raw || typeof raw !== 'object') return null;
  const goal = raw as Record<string, unknown>;
  const amount = readNumber(goal, 'amount');
  const purpose = readString(goal, 'purpose');
  const endsOn = readString(goal, 'ends_on');
  if (!(amount > 0) || !purpose || !endsOn) return null;
  return { amount, purpose, ends_on: endsOn, days_left: readNumber(goal, 'days_left') };
}

/** The list answer as a page of groups and the number that match (a bare array is all of them). */
export function readGroupList(answer: unknown): GroupList {
  const items = readList<Record<string, unknown>>(answer).map(readGroupRow);
  const total =
    answer && typeof answer === 'object' && !Array.isArray(answer) ? readNumber(answer as Record<string, unknown>, 'total', 'count') : 0;
  return { items, total: Math.max(total, items.length) };
}

export async function fetchGroups(params: GroupListParams): Promise<GroupList> {
  const answer = await apiJson<TAdminGroupListResponse>('/api/admin/groups', { query: { ...params } });
  return readGroupList(answer);
}

export const groupsQuery = (params: GroupListParams) => ({
  queryKey: [ADMIN_QUERY_ROOT, 'groups', params] as const,
  queryFn: () => fetchGroups(params),
  retry: retryServerFailureOnce,
});

export const useGroups = (params: GroupListParams) => useQuery(groupsQuery(params));
