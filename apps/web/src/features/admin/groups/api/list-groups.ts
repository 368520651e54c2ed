import { useQuery } from '@tanstack/react-query';
import type { TAdminGroupListResponse, TGroupStatusFilter } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

export interface GroupListParams {
  status: TGroupStatusFilter;
  q?: string;
  limit: number;
  offset: number;
}

/** One page of groups, newest first, and how many match (the contract's answer as it is). */
export const fetchGroups = (params: GroupListParams) => apiJson<TAdminGroupListResponse>('/api/admin/groups', { query: { ...params } });

export const groupsQuery = (params: GroupListParams) => ({
  queryKey: [ADMIN_QUERY_ROOT, 'groups', params] as const,
  queryFn: () => fetchGroups(params),
  retry: retryServerFailureOnce,
});

export const useGroups = (params: GroupListParams) => useQuery(groupsQuery(params));
