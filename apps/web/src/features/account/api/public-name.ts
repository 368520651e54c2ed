import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPublicNameRequest, TPublicNameResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { QUERY_KEYS } from '@/lib/query-client';

/** How buyers see the seller (issue 22): the choice, who makes it, and the name it gives. */
export const fetchPublicName = () => apiJson<TPublicNameResponse>('/api/account/public-name');

export const publicNameQuery = queryOptions({ queryKey: ['account', 'public-name'], queryFn: fetchPublicName });

export const usePublicName = () => useQuery(publicNameQuery);

export const setPublicName = (request: TPublicNameRequest) =>
  apiJson<TPublicNameResponse>('/api/account/public-name', { method: 'POST', body: request });

export function useSetPublicName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPublicName,
    onSuccess: (answer) => {
      queryClient.setQueryData(publicNameQuery.queryKey, answer);
      // The share texts on the dashboard carry the name.
      return queryClient.invalidateQueries({ queryKey: QUERY_KEYS.meSummary });
    },
  });
}
