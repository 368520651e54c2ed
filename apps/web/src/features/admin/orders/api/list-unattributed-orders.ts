import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TUnattributedOrdersResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { readList, readNumber, readString } from '@/lib/tolerant-readers';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

export const UNATTRIBUTED_PAGE_SIZE = 50;

export interface UnattributedOrder {
  order_id: number;
  /** spec §2 seller orders: the order name, else the shop's order id, else our order id. */
  label: string;
  ordered_at: string | undefined;
  subtotal_incl_vat: number;
  commission_total: number;
  state: string;
  /** The personal link code the order carried that matched no seller. */
  ref_code: string | undefined;
  /** The seller and group the code belonged to, when it is an archived group's link (decision 027). */
  archived_link: { seller_name: string; group_name: string } | undefined;
}

export interface UnattributedOrders {
  items: UnattributedOrder[];
  total: number;
}

function readArchivedLink(raw: unknown): UnattributedOrder['archived_link'] {
  if (!raw || typeof raw !== 'object') return undefined;
  const link = raw as Record<string, unknown>;
  return { seller_name: readString(link, 'seller_name') ?? '', group_name: readString(link, 'group_name') ?? '' };
}

export function readUnattributedOrders(answer: unknown): UnattributedOrders {
  const items = readList<Record<string, unknown>>(answer).map((raw) => {
    const orderId = readString(raw, 'order_id', 'id');
    return {
      order_id: Number(orderId ?? 0),
      label: readString(raw, 'order_name', 'name') ?? readString(raw, 'shopify_order_id') ?? orderId ?? '–',
      ordered_at: readString(raw, 'ordered_at', 'created_at'),
      subtotal_incl_vat: readNumber(raw, 'subtotal_incl_vat', 'subtotal', 'amount'),
      commission_total: readNumber(raw, 'commission_total', 'commission'),
      state: readString(raw, 'state') ?? '',
      ref_code: readString(raw, 'ref_code'),
      archived_link: readArchivedLink(raw.archived_link),
    };
  });
  const total =
    answer && typeof answer === 'object' && !Array.isArray(answer) ? readNumber(answer as Record<string, unknown>, 'total', 'count') : 0;
  return { items, total: Math.max(total, items.length) };
}

/** The server pages by page number; the admin pages keep an offset in the address. */
export async function fetchUnattributedOrders(offset: number): Promise<UnattributedOrders> {
  const answer = await apiJson<TUnattributedOrdersResponse>('/api/admin/orders/unattributed', {
    query: { page: Math.floor(offset / UNATTRIBUTED_PAGE_SIZE) + 1, page_size: UNATTRIBUTED_PAGE_SIZE },
  });
  return readUnattributedOrders(answer);
}

export const unattributedOrdersQuery = (offset: number) => ({
  queryKey: [ADMIN_QUERY_ROOT, 'unattributed-orders', offset] as const,
  queryFn: () => fetchUnattributedOrders(offset),
  retry: retryServerFailureOnce,
});

/** Another page keeps the shown one until it arrives. */
export const useUnattributedOrders = (offset: number) =>
  useQuery({ ...unattributedOrdersQuery(offset), placeholderData: keepPreviousData });
