import { useMutation } from '@tanstack/react-query';
import type { TDeleteAccountRequest, TOkResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';

/**
 * 'Radera mitt konto' (issue 22). A wrong password is the form's to show, not a signed-out
 * session, so a refusal never signs out; success ends every session on the server.
 */
export const deleteAccount = (request: TDeleteAccountRequest) =>
  apiJson<TOkResponse>('/api/account/delete', { method: 'POST', body: request, signOutOnUnauthorized: false });

export const useDeleteAccount = () => useMutation({ mutationFn: deleteAccount });
