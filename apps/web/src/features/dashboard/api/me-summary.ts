import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TMeSummaryResponse } from '@saljportalen/contract';
import { apiJsonEarly } from '@/lib/early-requests';
import { FRESHNESS, QUERY_KEYS } from '@/lib/query-client';

export const fetchMeSummary = () => apiJsonEarly<TMeSummaryResponse>('/api/me/summary');

/** spec §9: the personal summary stays fresh 5 minutes and is not retried. */
export const meSummaryQuery = queryOptions({
  queryKey: QUERY_KEYS.meSummary,
  queryFn: fetchMeSummary,
  staleTime: FRESHNESS.personalSummary,
  retry: false,
});

export const useMeSummary = () => useQuery(meSummaryQuery);
