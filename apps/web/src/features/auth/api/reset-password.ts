import { useMutation, useQuery } from '@tanstack/react-query';
import type { TOkResponse, TResetPasswordRequest } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { clearSession } from '@/lib/session';

export const verifyResetCode = (code: string) =>
  apiJson<TOkResponse>('/api/auth/reset-password/verify', { method: 'POST', body: { code }, auth: false });

/** spec §4 reset-link flow: verifying → valid or invalid. */
export const useVerifyResetCode = (code: string | null) =>
  useQuery({
    queryKey: ['reset-code', code],
    queryFn: () => verifyResetCode(code!),
    enabled: Boolean(code),
    retry: false,
    staleTime: Infinity,
  });

/** After a reset the user is signed out everywhere, this browser included (spec §4). */
export async function resetPassword(request: TResetPasswordRequest): Promise<TOkResponse> {
  const answer = await apiJson<TOkResponse>('/api/auth/reset-password', { method: 'POST', body: request, auth: false });
  clearSession();
  return answer;
}

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
