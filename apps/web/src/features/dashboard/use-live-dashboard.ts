import { useQueryClient } from '@tanstack/react-query';
import { useLiveFigures } from '@/features/live-figures';
import { formatKronor } from '@/lib/format';
import { QUERY_KEYS } from '@/lib/query-client';
import { notify } from '@/lib/toast';

/**
 * The dashboard's figures follow the live stream (issue 20 §4): a change of the group's figures
 * refetches the personal figures, the group's totals (with its goal) and the leaderboard; a sale of
 * the seller's own link says so, 'Ny försäljning! +249 kr', never who bought.
 */
export function useLiveDashboard(): void {
  const queryClient = useQueryClient();
  const refetch = () => {
    for (const queryKey of [QUERY_KEYS.meSummary, QUERY_KEYS.groupTotals, QUERY_KEYS.leaderboard]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  };
  useLiveFigures({
    onGroupsChanged: refetch,
    onResync: refetch,
    onSale: (amount) => notify.sale(`Ny försäljning! +${formatKronor(amount)}`),
  });
}
