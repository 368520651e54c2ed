import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TGroupSettingsRequest, TGroupSettingsResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { groupTotalsQuery } from '@/features/dashboard/api/group-totals';
import { meSummaryQuery } from '@/features/dashboard/api/me-summary';
import { leaderboardQuery } from './leaderboard';

/** A group admin shows or hides the group's leaderboard for its sellers (spec §2, §6). */
export const setLeaderboardVisibility = (request: TGroupSettingsRequest) =>
  apiJson<TGroupSettingsResponse>('/api/group/settings', { method: 'POST', body: request });

export function useSetLeaderboardVisibility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setLeaderboardVisibility,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: leaderboardQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: groupTotalsQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: meSummaryQuery.queryKey }),
      ]),
  });
}
