import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TSalesPerDayResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { FRESHNESS } from '@/lib/query-client';

export const fetchGroupSalesPerDay = (groupId: number) =>
  apiJson<TSalesPerDayResponse>(`/api/group/sales-per-day?group_id=${encodeURIComponent(groupId)}`);

/** The class's sales per day (issue 20): as fresh as the group's totals it draws. */
export const groupSalesPerDayQuery = (groupId: number) =>
  queryOptions({
    queryKey: ['group', 'sales-per-day', groupId] as const,
    queryFn: () => fetchGroupSalesPerDay(groupId),
    staleTime: FRESHNESS.groupTotals,
  });

export const useGroupSalesPerDay = (groupId: number) => useQuery(groupSalesPerDayQuery(groupId));
