import { useQueryClient } from '@tanstack/react-query';
import { useLiveFigures } from '@/features/live-figures';
import { ADMIN_QUERY_ROOT } from './admin-page-helpers';
import { payoutKeys } from './payouts';

/**
 * The admin pages follow the live stream (issue 20 §4): a superadmin's stream carries every group's
 * figure and payout changes, and the pages showing figures (overview, groups list, group detail,
 * sellers, payouts) refetch what is on screen.
 */
export function useLiveAdmin(): void {
  const queryClient = useQueryClient();
  const refetch = () => {
    void queryClient.invalidateQueries({
      queryKey: [ADMIN_QUERY_ROOT],
      // The logs are not figures: a busy shop would refetch them for nothing.
      predicate: (query) => !['audit', 'webhooks'].includes(String(query.queryKey[1])),
    });
    void queryClient.invalidateQueries({ queryKey: payoutKeys.all });
  };
  // Every group's changes come here: a busy shop refetches these pages once a second at most.
  useLiveFigures({ onGroupsChanged: refetch, onResync: refetch, coalesceMs: 1000 });
}
