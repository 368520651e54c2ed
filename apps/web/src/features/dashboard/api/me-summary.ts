import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TMeSummaryResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { FRESHNESS } from '@/lib/query-client';

export const fetchMeSummary = () => apiJson<TMeSummaryResponse>('/api/me/summary');

/** spec §9: the personal summary stays fresh 5 minutes and is not retried. */
export const meSummaryQuery = queryOptions({
  queryKey: ['me', 'summary'],
  queryFn: fetchMeSummary,
  staleTime: FRESHNESS.personalSummary,
  retry: false,
});

export const useMeSummary = () => useQuery(meSummaryQuery);
