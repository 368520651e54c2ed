import { useQuery } from '@tanstack/react-query';
import type { TAdminSellerOrder, TAdminSellerOrdersResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { roundToOre } from '@/lib/format';
import { readIsAdmin, readList, readNumber, readString } from '@/lib/tolerant-readers';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

export interface SellerOrdersParams {
  userId: number;
  groupId: number;
  limit: number;
  offset: number;
}

export interface SellerOrderRow {
  order_id: number;
  /** spec §2: the order name, else the shop's order id, else our order id. */
  label: string;
  ordered_at: string | undefined;
  subtotal_incl_vat: number;
  commission_total: number;
}

export interface SellerOrders {
  seller: { full_name: string; email?: string; group_name?: string; is_admin: boolean };
  /** The card figures: the seller summary, or sums over the orders rounded to öre (spec §2). */
  figures: { orders_count: number; total_sales: number; total_commission: number };
  items: SellerOrderRow[];
  total: number;
}

const finite = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export function readSellerOrderRow(raw: Record<string, unknown>): SellerOrderRow {
  const orderId = readString(raw, 'order_id', 'id');
  return {
    order_id: Number(orderId ?? 0),
    label: readString(raw, 'order_name', 'name') ?? readString(raw, 'shopify_order_id') ?? orderId ?? '–',
    ordered_at: readString(raw, 'ordered_at', 'created_at'),
    subtotal_incl_vat: readNumber(raw, 'subtotal_incl_vat', 'subtotal', 'amount', 'total_sales'),
    commission_total: readNumber(raw, 'commission_total', 'commission', 'total_commission'),
  };
}

/** The orders answer (array, `{items}` or with its seller summary) as the page shows it. */
export function readSellerOrders(answer: unknown): SellerOrders {
  const items = readList<Record<string, unknown>>(answer).map(readSellerOrderRow);
  const wrapper = answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, unknown>) : {};
  const summary = (wrapper.seller && typeof wrapper.seller === 'object' ? wrapper.seller : {}) as Partial<
    TAdminSellerOrdersResponse['seller']
  > &
    Record<string, unknown>;
  return {
    seller: {
      full_name: readString(summary, 'full_name', 'name') ?? '',
      email: readString(summary, 'email'),
      group_name: readString(summary, 'group_name'),
      is_admin: readIsAdmin(summary),
    },
    figures: {
      orders_count: finite(summary.orders_count) ?? items.length,
      total_sales: finite(summary.total_sales) ?? roundToOre(items.reduce((sum, order) => sum + order.subtotal_incl_vat, 0)),
      total_commission: finite(summary.total_commission) ?? roundToOre(items.reduce((sum, order) => sum + order.commission_total, 0)),
    },
    items,
    total: Math.max(readNumber(wrapper, 'total'), items.length),
  };
}

export async function fetchSellerOrders(params: SellerOrdersParams): Promise<SellerOrders> {
  const answer = await apiJson<TAdminSellerOrdersResponse | TAdminSellerOrder[]>(`/api/admin/seller/${params.userId}/orders`, {
    query: { group_id: params.groupId, limit: params.limit, offset: params.offset },
  });
  return readSellerOrders(answer);
}

export const sellerOrdersQuery = (params: SellerOrdersParams) => ({
  queryKey: [ADMIN_QUERY_ROOT, 'seller-orders', params] as const,
  queryFn: () => fetchSellerOrders(params),
  retry: retryServerFailureOnce,
});

export const useSellerOrders = (params: SellerOrdersParams | undefined) =>
  useQuery({ ...sellerOrdersQuery(params ?? { userId: 0, groupId: 0, limit: 0, offset: 0 }), enabled: params !== undefined });
