import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TWebhookEventStatus, TWebhookEventsResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

export const WEBHOOKS_PAGE_SIZE = 25;

export const webhookKeys = {
  all: [ADMIN_QUERY_ROOT, 'webhooks'] as const,
  list: (status: TWebhookEventStatus | undefined, offset: number) => [...webhookKeys.all, 'list', status ?? 'all', offset] as const,
  detail: (id: number) => [...webhookKeys.all, 'detail', id] as const,
};

/** The server pages by page number; the admin pages keep an offset in the address. */
export const fetchWebhookEvents = (status: TWebhookEventStatus | undefined, offset: number) =>
  apiJson<TWebhookEventsResponse>('/api/admin/webhooks', {
    query: { status, page: Math.floor(offset / WEBHOOKS_PAGE_SIZE) + 1, page_size: WEBHOOKS_PAGE_SIZE },
  });

/** Another page or filter keeps the shown list until the new one arrives. */
export const useWebhookEvents = (status: TWebhookEventStatus | undefined, offset: number) =>
  useQuery({
    queryKey: webhookKeys.list(status, offset),
    queryFn: () => fetchWebhookEvents(status, offset),
    retry: retryServerFailureOnce,
    placeholderData: keepPreviousData,
  });
