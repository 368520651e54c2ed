import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TGroupTotalsResponse, TGuardianChildrenResponse, TMeSummaryResponse } from '@saljportalen/contract';
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
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['guardian'] }),
  });
};
