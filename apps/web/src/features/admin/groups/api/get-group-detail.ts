import { useQuery } from '@tanstack/react-query';
import type { TAdminGroup, TAdminGroupDetailResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { readList, readNumber, readString, readSellerRow, type SellerRow } from '@/lib/tolerant-readers';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-queries';
import { readGroupRow } from './list-groups';

export type GroupPerson = SellerRow & { email?: string };

export interface GroupDetail {
  group: TAdminGroup;
  totals: TAdminGroupDetailResponse['totals'];
  /** Highest total sales first (spec §2). */
  sellers: GroupPerson[];
}

/** The detail answer, its people read through the tolerant readers and sorted by sales, highest first. */
export function readGroupDetail(answer: TAdminGroupDetailResponse): GroupDetail {
  const raw = answer as unknown as Record<string, unknown>;
  const totals = (raw.totals ?? {}) as Record<string, unknown>;
  const sellers = readList<Record<string, unknown>>(raw.sellers ?? raw)
    .map((row) => ({ ...readSellerRow(row), email: readString(row, 'email') }))
    .sort((a, b) => b.total_sales - a.total_sales);
  return {
    group: readGroupRow((raw.group ?? {}) as Record<string, unknown>),
    totals: {
      total_sales: readNumber(totals, 'total_sales', 'sales'),
      total_commission: readNumber(totals, 'total_commission', 'commission'),
      orders_count: readNumber(totals, 'orders_count', 'orders'),
      sellers_count: readNumber(totals, 'sellers_count', 'people_count') || sellers.length,
    },
    sellers,
  };
}

export async function fetchGroupDetail(groupId: number): Promise<GroupDetail> {
  return readGroupDetail(await apiJson<TAdminGroupDetailResponse>(`/api/admin/group/${groupId}`));
}

export const groupDetailQuery = (groupId: number) => ({
  queryKey: [ADMIN_QUERY_ROOT, 'group-detail', groupId] as const,
  queryFn: () => fetchGroupDetail(groupId),
  retry: retryServerFailureOnce,
});

export const useGroupDetail = (groupId: number | undefined) =>
  useQuery({ ...groupDetailQuery(groupId ?? 0), enabled: groupId !== undefined });
