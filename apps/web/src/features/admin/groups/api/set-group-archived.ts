import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TArchiveGroupRequest, TGroupChangeResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, isSessionFailure } from '../../admin-page-helpers';
import { groupDetailQuery, type GroupDetail } from './get-group-detail';

/** The change went through, but the reloaded group does not show the new state (spec §4). */
export class ArchiveNotConfirmedError extends Error {
  constructor() {
    super('Kunde inte bekräfta arkivering');
    this.name = 'ArchiveNotConfirmedError';
  }
}

/**
 * spec §7 POST …/archive. One call: the PATCH the spec falls back to is the same change on the
 * same server, so it could only fail the same way (decision 059).
 */
export function setGroupArchived(groupId: number, archived: boolean): Promise<TGroupChangeResponse> {
  const body: TArchiveGroupRequest = { archived };
  return apiJson<TGroupChangeResponse>(`/api/admin/group/${groupId}/archive`, { method: 'POST', body });
}

/** Archives or reactivates, then reloads the group and confirms its new state (spec §4). */
export function useSetGroupArchived(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (archived: boolean): Promise<GroupDetail> => {
      await setGroupArchived(groupId, archived);
      let reloaded: GroupDetail;
      try {
        // Every page carries the group's state; the first will do.
        reloaded = await queryClient.fetchQuery({ ...groupDetailQuery(groupId, 0), staleTime: 0 });
      } catch (error) {
        if (isSessionFailure(error)) throw error;
        throw new ArchiveNotConfirmedError();
      }
      if (reloaded.group.archived !== archived) throw new ArchiveNotConfirmedError();
      return reloaded;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_ROOT] }),
  });
}
