import { useMutation } from '@tanstack/react-query';
import type { TLoginRequest, TTokenResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { forgetSignedInData } from '@/lib/offline-cache';
import { setToken } from '@/lib/session';

export async function login(request: TLoginRequest): Promise<TTokenResponse> {
  const answer = await apiJson<TTokenResponse>('/api/auth/login', {
    method: 'POST',
    body: { ...request, email: request.email.trim() },
    auth: false,
  });
  // Whoever used this device before: their saved dashboard goes before this person's session begins.
  forgetSignedInData();
  setToken(answer.token);
  return answer;
}

export const useLogin = () => useMutation({ mutationFn: login });
