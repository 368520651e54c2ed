import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TGroupPayoutAccountResponse } from '@saljportalen/contract/payout-account';
import { apiJson } from '@/lib/api-client';

/** Where the class's money goes, masked: the group's admin, or a superadmin (issue 30 point 6). */
export const classPayoutAccountQuery = (groupId: number) =>
  queryOptions({
    queryKey: ['group', 'payout-account', groupId],
    queryFn: () => apiJson<TGroupPayoutAccountResponse>(`/api/group/payout-account?group_id=${groupId}`),
  });

export const useClassPayoutAccount = (groupId: number) => useQuery(classPayoutAccountQuery(groupId));
