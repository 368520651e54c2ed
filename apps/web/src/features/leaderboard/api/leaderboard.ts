import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TLeaderboardResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { apiJsonEarly } from '@/lib/early-requests';
import { FRESHNESS, QUERY_KEYS } from '@/lib/query-client';

export const fetchLeaderboard = () => apiJsonEarly<TLeaderboardResponse>('/api/group/leaderboard-mine');

/** spec §9: fresh 3 minutes; one retry, which is the query client's default. */
export const leaderboardQuery = queryOptions({
  queryKey: QUERY_KEYS.leaderboard,
  queryFn: fetchLeaderboard,
  staleTime: FRESHNESS.leaderboard,
});

/** Where a leaderboard comes from when it is not the signed-in seller's own (a guardian's child, issue 22). */
export interface LeaderboardSource {
  queryKey: readonly unknown[];
  path: string;
}

export const useLeaderboard = (source?: LeaderboardSource) =>
  useQuery<TLeaderboardResponse, Error, TLeaderboardResponse, readonly unknown[]>(
    source
      ? { queryKey: source.queryKey, queryFn: () => apiJson<TLeaderboardResponse>(source.path), staleTime: FRESHNESS.leaderboard }
      : { queryKey: leaderboardQuery.queryKey, queryFn: fetchLeaderboard, staleTime: FRESHNESS.leaderboard },
  );
