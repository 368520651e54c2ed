import { useQuery } from '@tanstack/react-query';
import type { TSalesPerWeekResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

export const fetchSalesPerWeek = () => apiJson<TSalesPerWeekResponse>('/api/admin/overview/sales-per-week');

/** Every group's sales per week, the last 26 weeks (issue 20). */
export const useSalesPerWeek = () =>
  useQuery({
    queryKey: [ADMIN_QUERY_ROOT, 'overview', 'sales-per-week'] as const,
    queryFn: fetchSalesPerWeek,
    retry: retryServerFailureOnce,
  });
