import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TSetProtectedIdentityRequest, TSetProtectedIdentityResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { QUERY_KEYS } from '@/lib/query-client';
import { classMembersQuery } from './class-members';

export const setProtectedIdentity = (request: TSetProtectedIdentityRequest) =>
  apiJson<TSetProtectedIdentityResponse>('/api/group/members/protected', { method: 'POST', body: request });

export function useSetProtectedIdentity(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setProtectedIdentity,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: classMembersQuery(groupId).queryKey }),
        // The pupil leaves (or rejoins) the leaderboard, and their own name on what buyers see changes.
        queryClient.invalidateQueries({ queryKey: QUERY_KEYS.leaderboard }),
        queryClient.invalidateQueries({ queryKey: QUERY_KEYS.meSummary }),
      ]),
  });
}
