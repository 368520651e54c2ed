import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TGroupChangeResponse, TRenameGroupRequest } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT } from '../../admin-page-helpers';

/**
 * spec §7 POST …/rename, the name sent trimmed (spec §5). One call: the PATCH the spec falls back
 * to is the same change on the same server, so it could only fail the same way (decision 059).
 */
export function renameGroup(groupId: number, name: string): Promise<TGroupChangeResponse> {
  const body: TRenameGroupRequest = { name: name.trim() };
  return apiJson<TGroupChangeResponse>(`/api/admin/group/${groupId}/rename`, { method: 'POST', body });
}

export function useRenameGroup(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => renameGroup(groupId, name),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_ROOT] }),
  });
}
