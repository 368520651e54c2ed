import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TClassOrdersResponse, TMoveOrderRequest, TMoveOrderResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { QUERY_KEYS } from '@/lib/query-client';

export const CLASS_ORDERS_PAGE_SIZE = 20;

/** The class's orders, newest first, for its admin or a superadmin (issue 30 point 5). */
export const classOrdersQuery = (groupId: number, page: number) =>
  queryOptions({
    queryKey: ['group', 'orders', groupId, page],
    queryFn: () => apiJson<TClassOrdersResponse>(`/api/group/orders?group_id=${groupId}&page=${page}&page_size=${CLASS_ORDERS_PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });

export const useClassOrders = (groupId: number, page: number, enabled = true) => useQuery({ ...classOrdersQuery(groupId, page), enabled });

/**
 * Moves a sale to the pupil who made it. Everything that shows either pupil's figures is read
 * again: the class's orders, the leaderboard and totals, and (in the admin area) every admin page.
 */
export function useMoveOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, ...body }: TMoveOrderRequest & { orderId: number }) =>
      apiJson<TMoveOrderResponse>(`/api/group/orders/${orderId}/move`, { method: 'POST', body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['group'] }),
        queryClient.invalidateQueries({ queryKey: QUERY_KEYS.meSummary }),
        queryClient.invalidateQueries({ queryKey: ['admin'] }),
      ]),
  });
}
