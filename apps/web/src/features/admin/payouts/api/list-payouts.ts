import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TPayoutListQuery, TPayoutListResponse } from '@saljportalen/contract';
import { apiDownload, apiJson } from '@/lib/api-client';
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

/** spec §4: when the page filters on draft, the server is sent 'open'. */
function toQuery(filters: PayoutFilters): Record<string, string | undefined> {
  const status: TPayoutListQuery['status'] = filters.status === 'draft' ? 'open' : filters.status;
  return { status, group_id: filters.groupId || undefined, from: filters.from || undefined, to: filters.to || undefined };
}

export const fetchPayouts = (filters: PayoutFilters) => apiJson<TPayoutListResponse>('/api/admin/payouts', { query: toQuery(filters) });

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
