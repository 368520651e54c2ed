import { useQuery } from '@tanstack/react-query';
import type { TSalesPerDayResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

export const fetchAdminGroupSalesPerDay = (groupId: number) => apiJson<TSalesPerDayResponse>(`/api/admin/groups/${groupId}/sales-per-day`);

/** The class's sales per day, as its members see it on their dashboard (issue 20). */
export const useAdminGroupSalesPerDay = (groupId: number | undefined) =>
  useQuery({
    queryKey: [ADMIN_QUERY_ROOT, 'group-sales-per-day', groupId] as const,
    queryFn: () => fetchAdminGroupSalesPerDay(groupId!),
    enabled: groupId !== undefined,
    retry: retryServerFailureOnce,
  });
