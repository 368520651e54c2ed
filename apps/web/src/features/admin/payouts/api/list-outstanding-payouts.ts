import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TOutstandingPayoutsResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { payoutKeys } from './payout-keys';

/** 'Att reglera' (GET /api/admin/payouts/outstanding): per group, what no next payout is sure to settle. */
export const fetchOutstandingPayouts = () => apiJson<TOutstandingPayoutsResponse>('/api/admin/payouts/outstanding');

export const outstandingPayoutsQuery = () =>
  // Under the lists' key, so that creating a payout (which settles these) refreshes it too.
  queryOptions({ queryKey: [...payoutKeys.lists(), 'outstanding'] as const, queryFn: fetchOutstandingPayouts });

export const useOutstandingPayouts = () => useQuery(outstandingPayoutsQuery());
