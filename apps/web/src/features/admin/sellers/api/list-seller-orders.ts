import { useQuery } from '@tanstack/react-query';
import type { TAdminSellerOrdersResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

export interface SellerOrdersParams {
  userId: number;
  groupId: number;
  limit: number;
  offset: number;
}

/**
 * One page of the seller's orders in the group, newest first, with the seller summary over all of
 * them: the cards' figures (spec §2) come from it, whichever page is shown.
 */
export const fetchSellerOrders = (params: SellerOrdersParams) =>
  apiJson<TAdminSellerOrdersResponse>(`/api/admin/seller/${params.userId}/orders`, {
    query: { group_id: params.groupId, limit: params.limit, offset: params.offset },
  });

export const sellerOrdersQuery = (params: SellerOrdersParams) => ({
  queryKey: [ADMIN_QUERY_ROOT, 'seller-orders', params] as const,
  queryFn: () => fetchSellerOrders(params),
  retry: retryServerFailureOnce,
});

export const useSellerOrders = (params: SellerOrdersParams | undefined) =>
  useQuery({ ...sellerOrdersQuery(params ?? { userId: 0, groupId: 0, limit: 0, offset: 0 }), enabled: params !== undefined });
