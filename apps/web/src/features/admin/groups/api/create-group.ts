import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCreateGroupRequest, TCreateGroupResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT } from '../../admin-page-helpers';

/** spec §3 create group: a name and, optionally, the group's administrator. The server makes the code. */
export const createGroup = (request: TCreateGroupRequest) =>
  apiJson<TCreateGroupResponse>('/api/admin/groups/create', { method: 'POST', body: request });

export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_ROOT] }),
  });
}
