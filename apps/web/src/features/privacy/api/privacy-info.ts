import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TPrivacyInfoResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';

export const fetchPrivacyInfo = () => apiJson<TPrivacyInfoResponse>('/api/privacy', { auth: false });

/** The contact changes only with the server's settings: fetched once per visit. */
export const privacyInfoQuery = queryOptions({
  queryKey: ['privacy-info'] as const,
  queryFn: fetchPrivacyInfo,
  staleTime: Infinity,
});

export const usePrivacyInfo = () => useQuery(privacyInfoQuery);
