import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAccountGroupsResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';

export const fetchAccountGroups = () => apiJson<TAccountGroupsResponse>('/api/account/groups');

/** The memberships the switcher lists; a switch reloads the page, so five minutes is fresh enough. */
export const accountGroupsQuery = queryOptions({
  queryKey: ['account', 'groups'],
  queryFn: fetchAccountGroups,
  staleTime: 5 * 60_000,
});

export const useAccountGroups = (enabled = true) => useQuery({ ...accountGroupsQuery, enabled });
