import { ApiError } from '@/lib/api-client';

/** Every query of the admin area starts with this key, so one change can reload them all (spec §4). */
export const ADMIN_QUERY_ROOT = 'admin' as const;

/**
 * A missing group or a refused request stays what it is when asked again: only a server or
 * network failure is retried, once.
 */
export const retryServerFailureOnce = (failureCount: number, error: unknown): boolean =>
  failureCount < 1 && !(error instanceof ApiError && error.status < 500);

/** One rule for the whole app: a failure that ended the session gets no toast of its own. */
export { isSessionFailure, notifyFailure } from '@/lib/toast';

export const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.status === 404;

/** A route parameter that is a database id: a positive whole number. */
export function parseId(value: string | undefined): number | undefined {
  if (!value || !/^\d{1,10}$/.test(value)) return undefined;
  const id = Number(value);
  return id > 0 && id <= 2_147_483_647 ? id : undefined;
}

/** A page's start position from the URL: a whole number, 0 when missing or malformed. */
export const readOffset = (value: string | null): number => (value && /^\d+$/.test(value) ? Number(value) : 0);

/** spec §2 seller orders: an order is named by its order name, else the shop's order id, else our order id. */
export const orderLabel = (order: { order_id: number; order_name: string | null; shopify_order_id: string }): string =>
  order.order_name || order.shopify_order_id || String(order.order_id);
