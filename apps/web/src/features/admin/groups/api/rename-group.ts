import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TGroupChangeResponse, TRenameGroupRequest, TUpdateGroupRequest } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, isSessionFailure } from '../../admin-page-helpers';

/** spec §7: POST …/rename, and on failure the PATCH of the group itself. The name is sent trimmed (spec §5). */
export async function renameGroup(groupId: number, name: string): Promise<TGroupChangeResponse> {
  const trimmed = name.trim();
  try {
    const body: TRenameGroupRequest = { name: trimmed };
    return await apiJson<TGroupChangeResponse>(`/api/admin/group/${groupId}/rename`, { method: 'POST', body });
  } catch (error) {
    if (isSessionFailure(error)) throw error;
    const body: TUpdateGroupRequest = { name: trimmed };
    return apiJson<TGroupChangeResponse>(`/api/admin/group/${groupId}`, { method: 'PATCH', body });
  }
}

export function useRenameGroup(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => renameGroup(groupId, name),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_ROOT] }),
  });
}
