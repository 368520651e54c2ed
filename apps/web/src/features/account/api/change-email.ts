import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TChangeEmailRequest, TSessionRenewedResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { setToken } from '@/lib/session';
import { profileQuery } from './profile';

/** The change ends every other session; this one goes on with the token in the answer. */
export async function changeEmail(request: TChangeEmailRequest): Promise<TSessionRenewedResponse> {
  const answer = await apiJson<TSessionRenewedResponse>('/api/account/change-email', {
    method: 'POST',
    body: { ...request, new_email: request.new_email.trim() },
  });
  setToken(answer.token);
  return answer;
}

export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changeEmail, onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQuery.queryKey }) });
}
