import { useQuery } from '@tanstack/react-query';
import type { TWebhookEventDetail } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { retryServerFailureOnce } from '../../admin-page-helpers';
import { webhookKeys } from './list-webhook-events';

/** One event with what Shopify sent, buyers' personal data masked by the server. */
export const fetchWebhookEvent = (id: number) => apiJson<TWebhookEventDetail>(`/api/admin/webhooks/${id}`);

/** Fetched only once the content is opened. */
export const useWebhookEvent = (id: number, enabled: boolean) =>
  useQuery({ queryKey: webhookKeys.detail(id), queryFn: () => fetchWebhookEvent(id), enabled, retry: retryServerFailureOnce });
