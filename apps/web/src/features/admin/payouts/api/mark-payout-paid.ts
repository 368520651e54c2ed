import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TUpdatePayoutRequest, TUpdatePayoutResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { payoutKeys } from './payout-keys';

/** spec §4: draft → paid is the only change a payout allows. */
export const markPayoutPaid = (id: number) =>
  apiJson<TUpdatePayoutResponse>(`/api/admin/payouts/${id}`, { method: 'PATCH', body: { status: 'paid' } satisfies TUpdatePayoutRequest });

export function useMarkPayoutPaid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markPayoutPaid,
    // Also after a 409 (someone else marked it first): the list should show what is true now.
    onSettled: () => queryClient.invalidateQueries({ queryKey: payoutKeys.lists() }),
  });
}
