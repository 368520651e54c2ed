import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TGroupTotalsResponse } from '@saljportalen/contract';
import { apiJsonEarly } from '@/lib/early-requests';
import { FRESHNESS, QUERY_KEYS } from '@/lib/query-client';

export const fetchGroupTotals = () => apiJsonEarly<TGroupTotalsResponse>('/api/group/totals');

/** spec §9: fresh 5 minutes; one retry, which is the query client's default. */
export const groupTotalsQuery = queryOptions({
  queryKey: QUERY_KEYS.groupTotals,
  queryFn: fetchGroupTotals,
  staleTime: FRESHNESS.groupTotals,
});

export const useGroupTotals = () => useQuery(groupTotalsQuery);
