import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAccountGroupsResponse } from '@saljportalen/contract';
import { ApiError, apiJson } from '@/lib/api-client';
import { getToken } from '@/lib/session';

/**
 * The header's list never revives a session: on /login?expired=1 the header still shows for a
 * moment while the session is being ended, and the API client's refresh would sign the visitor
 * straight back in. Without a stored token it answers 'unauthorized' (not retried, no toast).
 */
export async function fetchAccountGroups(): Promise<TAccountGroupsResponse> {
  if (!getToken()) throw new ApiError(401, 'unauthorized', 'UNAUTHENTICATED');
  return apiJson<TAccountGroupsResponse>('/api/account/groups');
}

/** The memberships the switcher lists; a switch reloads the page, so five minutes is fresh enough. */
export const accountGroupsQuery = queryOptions({
  queryKey: ['account', 'groups'],
  queryFn: fetchAccountGroups,
  staleTime: 5 * 60_000,
});

export const useAccountGroups = (enabled = true) => useQuery({ ...accountGroupsQuery, enabled });
