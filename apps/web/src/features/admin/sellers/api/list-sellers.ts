import { useQuery } from '@tanstack/react-query';
import type { TAdminSellerListQuery, TAdminSellerListResponse, TSellerSort } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

/** spec §9 sort options as the page names them. */
export type SellerSortOption = 'sales' | 'commission' | 'orders';

/** spec §7: sales → total_sales, commission → total_commission, orders → orders_count. */
export const SELLER_SORT_FIELD: Record<SellerSortOption, TSellerSort> = {
  sales: 'total_sales',
  commission: 'total_commission',
  orders: 'orders_count',
};

/** All groups, only active or only archived groups, or one group by id (spec §2). */
export type SellerGroupFilter = 'all' | 'active' | 'archived' | number;

export interface SellerListParams {
  from?: string;
  to?: string;
  group: SellerGroupFilter;
  sort: SellerSortOption;
  limit: number;
  offset: number;
}

/** The query the server reads: a group filter is either a status or a group id. */
export function sellerListQuery(params: SellerListParams): Partial<Record<keyof TAdminSellerListQuery, string | number>> {
  return {
    from: params.from || undefined,
    to: params.to || undefined,
    status: typeof params.group === 'number' ? 'all' : params.group,
    group_id: typeof params.group === 'number' ? params.group : undefined,
    sort: SELLER_SORT_FIELD[params.sort],
    limit: params.limit,
    offset: params.offset,
  };
}

/** One page of memberships with their figures (spec §7 answers it as `{items}`), and how many match. */
export const fetchSellers = (params: SellerListParams) =>
  apiJson<TAdminSellerListResponse>('/api/admin/sellers', { query: sellerListQuery(params) });

export const sellersQuery = (params: SellerListParams) => ({
  queryKey: [ADMIN_QUERY_ROOT, 'sellers', params] as const,
  queryFn: () => fetchSellers(params),
  retry: retryServerFailureOnce,
});

export const useSellers = (params: SellerListParams) => useQuery(sellersQuery(params));
