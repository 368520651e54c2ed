import { useQuery } from '@tanstack/react-query';
import type { TAdminGroup, TAdminGroupDetailQuery, TAdminGroupDetailResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { readList, readNumber, readString, readSellerRow, type SellerRow } from '@/lib/tolerant-readers';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';
import { readGroupRow } from './list-groups';

/** People in the group's table per page: a class fits on one, a large club gets a pager. */
export const GROUP_PEOPLE_PAGE_SIZE = 50;

export type GroupPerson = SellerRow & { email?: string };

export interface GroupDetail {
  group: TAdminGroup;
  /** Over the whole group, whichever page is shown. */
  totals: TAdminGroupDetailResponse['totals'];
  /** One page of the people, highest total sales first (spec §2). */
  sellers: GroupPerson[];
  /** The number of people on every page together. */
  sellersTotal: number;
}

/**
 * The detail answer, its people read through the tolerant readers and sorted by sales, highest
 * first. An answer without a page holds every person.
 */
export function readGroupDetail(answer: TAdminGroupDetailResponse): GroupDetail {
  const raw = answer as unknown as Record<string, unknown>;
  const totals = (raw.totals ?? {}) as Record<string, unknown>;
  const page = (raw.sellers_page ?? {}) as Record<string, unknown>;
  const sellers = readList<Record<string, unknown>>(raw.sellers ?? raw)
    .map((row) => ({ ...readSellerRow(row), email: readString(row, 'email') }))
    .sort((a, b) => b.total_sales - a.total_sales);
  const sellersTotal = Math.max(readNumber(page, 'total'), sellers.length);
  return {
    group: readGroupRow((raw.group ?? {}) as Record<string, unknown>),
    totals: {
      total_sales: readNumber(totals, 'total_sales', 'sales'),
      total_commission: readNumber(totals, 'total_commission', 'commission'),
      orders_count: readNumber(totals, 'orders_count', 'orders'),
      sellers_count: readNumber(totals, 'sellers_count', 'people_count') || sellersTotal,
    },
    sellers,
    sellersTotal,
  };
}

export async function fetchGroupDetail(groupId: number, offset: number): Promise<GroupDetail> {
  const query: TAdminGroupDetailQuery = { limit: GROUP_PEOPLE_PAGE_SIZE, offset };
  return readGroupDetail(await apiJson<TAdminGroupDetailResponse>(`/api/admin/group/${groupId}`, { query }));
}

/** Every page of a group shares the prefix `[admin, 'group-detail', groupId]`. */
export const groupDetailQuery = (groupId: number, offset: number) => ({
  queryKey: [ADMIN_QUERY_ROOT, 'group-detail', groupId, offset] as const,
  queryFn: () => fetchGroupDetail(groupId, offset),
  retry: retryServerFailureOnce,
});

/** Another page of the same group keeps the shown one until it arrives; another group never does. */
export const useGroupDetail = (groupId: number | undefined, offset: number) =>
  useQuery({
    ...groupDetailQuery(groupId ?? 0, offset),
    enabled: groupId !== undefined,
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === groupId ? previous : undefined),
  });
