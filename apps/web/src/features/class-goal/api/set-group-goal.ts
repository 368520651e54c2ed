import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TGroupGoalRequest, TGroupGoalResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { QUERY_KEYS } from '@/lib/query-client';

/** The group admin (or a superadmin) sets, changes or removes the class goal (issue 20). */
export const setGroupGoal = (request: TGroupGoalRequest) =>
  apiJson<TGroupGoalResponse>('/api/group/goal', { method: 'POST', body: request });

/** `onSaved`: what else the caller shows the goal in (the admin's group pages) and must fetch again. */
export function useSetGroupGoal(options: { onSaved?: () => Promise<unknown> } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setGroupGoal,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: QUERY_KEYS.groupTotals }), options.onSaved?.()]),
  });
}
