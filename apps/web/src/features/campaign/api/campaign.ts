import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  TCampaignRequest,
  TCampaignResponse,
  TCloneGroupRequest,
  TCloneGroupResponse,
  TClosingNoteRequest,
  TClosingNoteResponse,
} from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { QUERY_KEYS } from '@/lib/query-client';

/** The class's campaign days (issue 31), by the group's admin. */
export const setCampaign = (request: TCampaignRequest) =>
  apiJson<TCampaignResponse>('/api/group/campaign', { method: 'POST', body: request });

export const writeClosingNote = (request: TClosingNoteRequest) =>
  apiJson<TClosingNoteResponse>('/api/group/closing-note', { method: 'POST', body: request });

export const cloneGroup = (request: TCloneGroupRequest) =>
  apiJson<TCloneGroupResponse>('/api/group/clone', { method: 'POST', body: request });

/** The class's totals carry the campaign and the note: they are fetched again after a change. */
function useGroupChange<Request, Response>(call: (request: Request) => Promise<Response>, everything = false) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    // Next term changes the active group itself: every figure on the page is the new class's.
    onSuccess: () => (everything ? queryClient.invalidateQueries() : queryClient.invalidateQueries({ queryKey: QUERY_KEYS.groupTotals })),
  });
}

export const useSetCampaign = () => useGroupChange(setCampaign);
export const useWriteClosingNote = () => useGroupChange(writeClosingNote);
export const useCloneGroup = () => useGroupChange(cloneGroup, true);
