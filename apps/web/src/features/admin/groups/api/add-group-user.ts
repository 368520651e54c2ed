import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAddGroupUserRequest, TAddGroupUserResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT } from '../../admin-page-helpers';

/** spec §3 add user: an existing account joins the group, an unknown address gets a new account (`is_new_user`). */
export const addGroupUser = (groupId: number, request: TAddGroupUserRequest) =>
  apiJson<TAddGroupUserResponse>(`/api/admin/groups/${groupId}/add-user`, { method: 'POST', body: request });

export function useAddGroupUser(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TAddGroupUserRequest) => addGroupUser(groupId, request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_ROOT] }),
  });
}
