import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TPayout, TPayoutListQuery } from '@saljportalen/contract';
import { apiDownload, apiJson } from '@/lib/api-client';
import { readList, readNumber, readString } from '@/lib/tolerant-readers';
import { payoutKeys } from './payout-keys';

/** The status filter as the page offers it (spec §2: all, draft, paid). */
export type PayoutStatusFilter = 'all' | 'draft' | 'paid';

export interface PayoutFilters {
  status: PayoutStatusFilter;
  /** A group id, or '' for every group. */
  groupId: string;
  /** `YYYY-MM-DD` or ''. */
  from: string;
  to: string;
}

/** One row of the list, read tolerantly (spec §3): the page never sees the raw answer. */
export type PayoutRow = Pick<
  TPayout,
  | 'id'
  | 'group_id'
  | 'group_name'
  | 'period_from'
  | 'period_to'
  | 'orders_count'
  | 'total_commission'
  | 'amount_to_pay'
  | 'status'
  | 'created_at'
  | 'paid_at'
>;

function readPayoutRow(raw: Record<string, unknown>): PayoutRow {
  const status = readString(raw, 'status', 'state');
  return {
    id: readNumber(raw, 'id', 'payout_id'),
    group_id: readNumber(raw, 'group_id', 'groupId'),
    group_name: readString(raw, 'group_name', 'groupName', 'group') ?? '',
    period_from: readString(raw, 'period_from', 'from', 'periodFrom') ?? '',
    period_to: readString(raw, 'period_to', 'to', 'periodTo') ?? '',
    orders_count: readNumber(raw, 'orders_count', 'orders', 'order_count', 'ordersCount'),
    total_commission: readNumber(raw, 'total_commission', 'commission', 'commission_total', 'amount', 'totalCommission'),
    // 'Att betala' after the server's öresavrundning (decision 028): the one amount the web shows.
    amount_to_pay: readNumber(raw, 'amount_to_pay', 'total_commission', 'commission', 'commission_total', 'amount', 'totalCommission'),
    // Anything not paid is still a draft ('open' is the same state under its older name, spec §4).
    status: status === 'paid' ? 'paid' : 'draft',
    created_at: readString(raw, 'created_at', 'createdAt') ?? '',
    paid_at: readString(raw, 'paid_at', 'paidAt') ?? null,
  };
}

/** spec §4: when the page filters on draft, the server is sent 'open'. */
function toQuery(filters: PayoutFilters): Record<string, string | undefined> {
  const status: TPayoutListQuery['status'] = filters.status === 'draft' ? 'open' : filters.status;
  return { status, group_id: filters.groupId || undefined, from: filters.from || undefined, to: filters.to || undefined };
}

export async function fetchPayouts(filters: PayoutFilters): Promise<PayoutRow[]> {
  const answer = await apiJson<unknown>('/api/admin/payouts', { query: toQuery(filters) });
  return readList(answer).map(readPayoutRow);
}

export const payoutsQuery = (filters: PayoutFilters) =>
  queryOptions({
    queryKey: [...payoutKeys.lists(), filters] as const,
    queryFn: () => fetchPayouts(filters),
    // A new filter keeps the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });

export const usePayouts = (filters: PayoutFilters) => useQuery(payoutsQuery(filters));

/** The list as CSV with the same filters (GET /api/admin/payouts/export.csv). */
export const downloadPayoutsCsv = (filters: PayoutFilters) =>
  apiDownload('/api/admin/payouts/export.csv', 'avrakningar.csv', { query: toQuery(filters) });
