import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TLeaderboardResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { FRESHNESS, QUERY_KEYS } from '@/lib/query-client';

export const fetchLeaderboard = () => apiJson<TLeaderboardResponse>('/api/group/leaderboard-mine');

/** spec §9: fresh 3 minutes; one retry, which is the query client's default. */
export const leaderboardQuery = queryOptions({
  queryKey: QUERY_KEYS.leaderboard,
  queryFn: fetchLeaderboard,
  staleTime: FRESHNESS.leaderboard,
});

export const useLeaderboard = () => useQuery(leaderboardQuery);
