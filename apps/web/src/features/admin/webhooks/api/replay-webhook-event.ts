import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TWebhookReplayResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT } from '../../admin-page-helpers';

/** 'Kör igen': the server processes a failed event once; a second time changes nothing. */
export const replayWebhookEvent = (id: number) => apiJson<TWebhookReplayResponse>(`/api/admin/webhooks/${id}/replay`, { method: 'POST' });

export function useReplayWebhookEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replayWebhookEvent,
    // The event list and its counts, and every figure an order may have changed.
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_ROOT] }),
  });
}
