import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TRosterRequest, TRosterResponse } from '@saljportalen/contract';
import { apiDownload, apiJson } from '@/lib/api-client';
import { classMembersQuery } from './class-members';

/** The class list of issue 31: each row's outcome. */
export const importRoster = (request: TRosterRequest) => apiJson<TRosterResponse>('/api/group/roster', { method: 'POST', body: request });

export function useImportRoster(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importRoster,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: classMembersQuery(groupId).queryKey }),
  });
}

/** New sign-in slips (PDF) for the class-list pupils without a guardian's address; older codes stop working. */
export const downloadSignInSlips = (groupId: number) =>
  apiDownload('/api/group/roster/slips', `inloggningslappar-${groupId}.pdf`, { method: 'POST', body: { group_id: groupId } });
