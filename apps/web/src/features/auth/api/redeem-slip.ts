import { useMutation } from '@tanstack/react-query';
import type { TRedeemSlipRequest, TTokenResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { forgetSignedInData } from '@/lib/offline-cache';
import { setToken } from '@/lib/session';

/** A class-list pupil's first sign-in (issue 31): the slip's code chooses the password and signs in. */
export async function redeemSlip(request: TRedeemSlipRequest): Promise<TTokenResponse> {
  const answer = await apiJson<TTokenResponse>('/api/auth/slip', { method: 'POST', body: request, auth: false });
  forgetSignedInData();
  setToken(answer.token);
  return answer;
}

export const useRedeemSlip = () => useMutation({ mutationFn: redeemSlip });
