import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TGroupTotalsResponse,
  TGuardianChildrenResponse,
  TGuardianChildPasswordRequest,
  TMeSummaryResponse,
  TPublicNameRequest,
  TPublicNameResponse,
} from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { FRESHNESS } from '@/lib/query-client';

/** The guardian's approved children and each one's dashboard, read only (issue 22). */
export const childPath = (childId: number, part: string) => `/api/guardian/children/${childId}/${part}`;

export const useGuardianChildren = () =>
  useQuery({ queryKey: ['guardian', 'children'], queryFn: () => apiJson<TGuardianChildrenResponse>('/api/guardian/children') });

export const useChildSummary = (childId: number) =>
  useQuery({
    queryKey: ['guardian', 'child', childId, 'summary'],
    queryFn: () => apiJson<TMeSummaryResponse>(childPath(childId, 'summary')),
    staleTime: FRESHNESS.personalSummary,
  });

export const useChildTotals = (childId: number) =>
  useQuery({
    queryKey: ['guardian', 'child', childId, 'totals'],
    queryFn: () => apiJson<TGroupTotalsResponse>(childPath(childId, 'totals')),
    staleTime: FRESHNESS.groupTotals,
  });

/** 'Återkalla samtycke': the child's account is erased. */
export const useWithdrawConsent = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (childId: number) => apiJson<{ ok: true }>(childPath(childId, 'withdraw'), { method: 'POST', body: {} }),
    // The child's account is gone: its dashboard leaves the page before its figures leave the cache,
    // so nothing asks for them again only to be refused (issue 33 point 8).
    onSuccess: (_answer, childId) => {
      queryClient.setQueryData<TGuardianChildrenResponse>(['guardian', 'children'], (list) =>
        list ? { ...list, children: list.children.filter((child) => child.user_id !== childId) } : list,
      );
      queryClient.removeQueries({ queryKey: ['guardian', 'child', childId] });
      return queryClient.invalidateQueries({ queryKey: ['guardian', 'children'] });
    },
  });
};

/** How buyers see a child under 13: the guardian chooses (issue 22). */
export const useChildPublicName = (childId: number) =>
  useQuery({
    queryKey: ['guardian', 'child', childId, 'public-name'],
    queryFn: () => apiJson<TPublicNameResponse>(childPath(childId, 'public-name')),
  });

export const useSetChildPublicName = (childId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TPublicNameRequest) =>
      apiJson<TPublicNameResponse>(childPath(childId, 'public-name'), { method: 'POST', body: request }),
    onSuccess: (answer) => {
      queryClient.setQueryData(['guardian', 'child', childId, 'public-name'], answer);
      // The share text and the catalogue's file name carry the name.
      return queryClient.invalidateQueries({ queryKey: ['guardian', 'child', childId, 'summary'] });
    },
  });
};

/** A class-list pupil's password, set by the guardian (issue 31): the pupil has no address to reset it from. */
export const useSetChildPassword = (childId: number) =>
  useMutation({
    mutationFn: (request: TGuardianChildPasswordRequest) =>
      apiJson<{ ok: true }>(childPath(childId, 'password'), { method: 'POST', body: request }),
  });
