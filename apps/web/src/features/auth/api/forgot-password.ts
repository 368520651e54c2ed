import { useMutation } from '@tanstack/react-query';
import type { TForgotPasswordRequest, TOkResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';

export const requestPasswordReset = (request: TForgotPasswordRequest) =>
  apiJson<TOkResponse>('/api/auth/forgot-password', { method: 'POST', body: { email: request.email.trim() }, auth: false });

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
