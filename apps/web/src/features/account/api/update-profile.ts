import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TOkResponse, TUpdateProfileRequest } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { QUERY_KEYS } from '@/lib/query-client';
import { profileQuery } from './profile';

/** spec §5: the name trimmed; the phone trimmed and left out when empty (which clears it). */
export function updateProfile(request: TUpdateProfileRequest): Promise<TOkResponse> {
  const phone = request.phone?.trim();
  return apiJson<TOkResponse>('/api/account/profile', {
    method: 'POST',
    body: { full_name: request.full_name.trim(), ...(phone ? { phone } : {}) },
  });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    // The name shows in the greeting and on the leaderboard too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: profileQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: QUERY_KEYS.meSummary }),
        queryClient.invalidateQueries({ queryKey: QUERY_KEYS.leaderboard }),
      ]),
  });
}
