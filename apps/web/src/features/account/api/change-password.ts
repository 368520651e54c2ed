import { useMutation } from '@tanstack/react-query';
import type { TChangePasswordRequest, TSessionRenewedResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { setToken } from '@/lib/session';

/** The change ends every other session; this one goes on with the token in the answer. */
export async function changePassword(request: TChangePasswordRequest): Promise<TSessionRenewedResponse> {
  const answer = await apiJson<TSessionRenewedResponse>('/api/account/change-password', { method: 'POST', body: request });
  setToken(answer.token);
  return answer;
}

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
