import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TGroupSettingsRequest, TGroupSettingsResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { QUERY_KEYS } from '@/lib/query-client';

/** A group admin shows or hides the group's leaderboard for its sellers (spec §2, §6), or chooses its mode (issue 20). */
export const setLeaderboardVisibility = (request: TGroupSettingsRequest) =>
  apiJson<TGroupSettingsResponse>('/api/group/settings', { method: 'POST', body: request });

export function useSetLeaderboardVisibility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setLeaderboardVisibility,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: QUERY_KEYS.leaderboard }),
        queryClient.invalidateQueries({ queryKey: QUERY_KEYS.groupTotals }),
        queryClient.invalidateQueries({ queryKey: QUERY_KEYS.meSummary }),
      ]),
  });
}
