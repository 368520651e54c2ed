import { useMutation, useQuery } from '@tanstack/react-query';
import type { TGuardianConsentRequest, TGuardianConsentResponse, TGuardianConsentResult } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { forgetSignedInData } from '@/lib/offline-cache';
import { queryClient } from '@/lib/query-client';
import { setToken } from '@/lib/session';

const consentKey = (code: string | null) => ['guardian', 'consent', code];

/** What the consent page shows about the child (issue 22); 404/410 for a code that cannot be used. */
export const useGuardianConsent = (code: string | null) =>
  useQuery({
    queryKey: consentKey(code),
    queryFn: () => apiJson<TGuardianConsentResponse>('/api/guardian/consent', { query: { code }, auth: false }),
    enabled: Boolean(code),
    retry: false,
    staleTime: Infinity,
  });

/** Approving signs the guardian in, as a login does; declining erases the child's account. */
export async function answerConsent(request: TGuardianConsentRequest): Promise<TGuardianConsentResult> {
  const answer = await apiJson<TGuardianConsentResult>('/api/guardian/consent', { method: 'POST', body: request, auth: false });
  if (answer.decision === 'approve') {
    // The page stays until it leads on: what it shows stays with it, so its spent code is not asked for again.
    const shown = queryClient.getQueryData(consentKey(request.code));
    forgetSignedInData();
    queryClient.setQueryData(consentKey(request.code), shown);
    setToken(answer.token);
  }
  return answer;
}

export const useAnswerConsent = () => useMutation({ mutationFn: answerConsent });
