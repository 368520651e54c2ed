import { useQuery } from '@tanstack/react-query';
import type { TAdminOverviewResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

export const fetchAdminOverview = () => apiJson<TAdminOverviewResponse>('/api/admin/overview');

export const adminOverviewQuery = () => ({
  queryKey: [ADMIN_QUERY_ROOT, 'overview'] as const,
  queryFn: fetchAdminOverview,
  retry: retryServerFailureOnce,
});

export const useAdminOverview = () => useQuery(adminOverviewQuery());
