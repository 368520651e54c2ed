import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAssignOrderRequest, TAssignOrderResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT } from '../../admin-page-helpers';

/**
 * Gives an order without a seller to a person in a group. Only while it still has none: an order
 * another admin assigned meanwhile stays where it is (409).
 */
export const assignOrder = (orderId: number, membershipId: number) =>
  apiJson<TAssignOrderResponse>(`/api/admin/orders/${orderId}/assign`, {
    method: 'POST',
    body: { membership_id: membershipId, only_if_unattributed: true } satisfies TAssignOrderRequest,
  });

export function useAssignOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, membershipId }: { orderId: number; membershipId: number }) => assignOrder(orderId, membershipId),
    // The list, the overview's count and the seller's and group's figures all change (or are stale after a refusal).
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_ROOT] }),
  });
}
