import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TChangeEmailRequest, TOkResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { profileQuery } from './profile';

export const changeEmail = (request: TChangeEmailRequest) =>
  apiJson<TOkResponse>('/api/account/change-email', { method: 'POST', body: { ...request, new_email: request.new_email.trim() } });

export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changeEmail, onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQuery.queryKey }) });
}
