import { useMutation } from '@tanstack/react-query';
import type { TRegisterSellerRequest, TTokenResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { forgetSignedInData } from '@/lib/offline-cache';
import { setToken } from '@/lib/session';

export async function registerSeller(request: TRegisterSellerRequest): Promise<TTokenResponse> {
  const answer = await apiJson<TTokenResponse>('/api/auth/register-seller', { method: 'POST', body: request, auth: false });
  forgetSignedInData();
  setToken(answer.token);
  return answer;
}

export const useRegisterSeller = () => useMutation({ mutationFn: registerSeller });
