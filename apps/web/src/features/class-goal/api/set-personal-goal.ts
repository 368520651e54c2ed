import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TPersonalGoalRequest, TPersonalGoalResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { QUERY_KEYS } from '@/lib/query-client';

/** The pupil sets or removes their own goal; only their own summary carries it (issue 20). */
export const setPersonalGoal = (request: TPersonalGoalRequest) =>
  apiJson<TPersonalGoalResponse>('/api/me/personal-goal', { method: 'POST', body: request });

export function useSetPersonalGoal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPersonalGoal,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: QUERY_KEYS.meSummary }),
  });
}
