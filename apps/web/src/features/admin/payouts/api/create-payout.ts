import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCreatePayoutRequest, TCreatePayoutResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { groupOptionsQuery } from '../../groups';
import { payoutKeys } from './payout-keys';

export const createPayout = (request: TCreatePayoutRequest) =>
  apiJson<TCreatePayoutResponse>('/api/admin/payouts', { method: 'POST', body: request });

export function useCreatePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPayout,
    onSuccess: (result) => {
      if (!result.created) return;
      if (result.auto_archived) {
        // The group was archived too: what other admin pages hold is stale now. They refetch when
        // next shown; refetching the superadmin check here could only bounce the page on a blip.
        void queryClient.invalidateQueries({ refetchType: 'none' });
        void queryClient.invalidateQueries({ queryKey: groupOptionsQuery().queryKey });
      }
      return queryClient.invalidateQueries({ queryKey: payoutKeys.lists() });
    },
  });
}
