import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TUnattributedOrder, TUnattributedOrdersResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

export const UNATTRIBUTED_PAGE_SIZE = 50;

export type UnattributedOrder = TUnattributedOrder;

/** The server pages by page number; the admin pages keep an offset in the address. */
export const fetchUnattributedOrders = (offset: number) =>
  apiJson<TUnattributedOrdersResponse>('/api/admin/orders/unattributed', {
    query: { page: Math.floor(offset / UNATTRIBUTED_PAGE_SIZE) + 1, page_size: UNATTRIBUTED_PAGE_SIZE },
  });

export const unattributedOrdersQuery = (offset: number) => ({
  queryKey: [ADMIN_QUERY_ROOT, 'unattributed-orders', offset] as const,
  queryFn: () => fetchUnattributedOrders(offset),
  retry: retryServerFailureOnce,
});

/** Another page keeps the shown one until it arrives. */
export const useUnattributedOrders = (offset: number) =>
  useQuery({ ...unattributedOrdersQuery(offset), placeholderData: keepPreviousData });
