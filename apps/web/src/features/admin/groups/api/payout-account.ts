import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPayoutAccountResponse, TSetPayoutAccountRequest, TSetPayoutAccountResponse } from '@saljportalen/contract/payout-account';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

/** Where the group's commission is paid (issue 30 point 6): null until the superadmin sets it. */
export const usePayoutAccount = (groupId: number) =>
  useQuery({
    queryKey: [ADMIN_QUERY_ROOT, 'group', groupId, 'payout-account'] as const,
    queryFn: async () => (await apiJson<TPayoutAccountResponse>(`/api/admin/groups/${groupId}/payout-account`)).payout_account,
    retry: retryServerFailureOnce,
  });

export function useSetPayoutAccount(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TSetPayoutAccountRequest) =>
      apiJson<TSetPayoutAccountResponse>(`/api/admin/groups/${groupId}/payout-account`, { method: 'PUT', body }),
    // The payouts list names the account a draft would be paid to.
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_ROOT] }),
  });
}
