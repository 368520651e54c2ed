import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TBuyerGreetingRequest, TBuyerGreetingResponse, TClassLinkResponse } from '@saljportalen/contract';
import { apiDownload, apiJson } from '@/lib/api-client';

/** The class link and the teacher's text for buyers (issue 32): the group's admin, or a superadmin. */
export const classLinkQuery = (groupId: number) =>
  queryOptions({
    queryKey: ['group', 'class-link', groupId],
    queryFn: () => apiJson<TClassLinkResponse>(`/api/group/class-link?group_id=${groupId}`),
  });

export const useClassLink = (groupId: number) => useQuery(classLinkQuery(groupId));

export function useSetBuyerGreeting(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TBuyerGreetingRequest) =>
      apiJson<TBuyerGreetingResponse>('/api/group/buyer-greeting', { method: 'POST', body: request }),
    onSuccess: (answer) =>
      queryClient.setQueryData(classLinkQuery(groupId).queryKey, (link) => link && { ...link, buyer_greeting: answer.buyer_greeting }),
  });
}

export const downloadPoster = (groupId: number) => apiDownload(`/api/group/poster.pdf?group_id=${groupId}`, 'klassaffisch.pdf');
