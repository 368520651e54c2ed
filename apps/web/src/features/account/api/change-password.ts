import { useMutation } from '@tanstack/react-query';
import type { TChangePasswordRequest, TOkResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';

export const changePassword = (request: TChangePasswordRequest) =>
  apiJson<TOkResponse>('/api/account/change-password', { method: 'POST', body: request });

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
