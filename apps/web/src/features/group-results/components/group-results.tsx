import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import type { TGroupTotalsResponse } from '@saljportalen/contract';
import { Card } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { formatCount, formatKronor } from '@/lib/format';
import { GoalProgress } from '@/features/class-goal';
import { participationText } from '@/features/leaderboard';
import { StatList, StatListSkeleton } from './stat-list';

/**
 * 'Gruppens resultat': the class's totals, its goal's progress and how much of the class has
 * started (issue 20), as the pupil sees them and, read only, their guardian (issue 22).
 */
export function GroupResults({
  totals,
  final = false,
  chart,
}: {
  totals: UseQueryResult<TGroupTotalsResponse>;
  /** An archived group's figures are its final result. */
  final?: boolean;
  /** The sales chart, for those who may read the group's sales per day. */
  chart?: ReactNode;
}) {
  return (
    <section aria-labelledby="group-summary-title" className="space-y-3">
      <h2 id="group-summary-title" className="text-lg font-semibold text-ink">
        {final ? 'Gruppens slutresultat' : 'Gruppens resultat'}
      </h2>
      {totals.isPending ? (
        <StatListSkeleton count={3} className="grid-cols-2 sm:grid-cols-3 lg:grid-cols-1" />
      ) : totals.isError && !totals.data ? (
        <LoadError title="Något gick fel vid laddning av data." query={totals} showReason={false} />
      ) : (
        <>
          {totals.data.goal && (
            <Card className="p-4">
              <GoalProgress goal={totals.data.goal} earned={totals.data.totals.total_commission} />
            </Card>
          )}
          <StatList
            className="grid-cols-2 sm:grid-cols-3 lg:grid-cols-1"
            stats={[
              { label: 'Totalt sålt', value: formatKronor(totals.data.totals.total_sales) },
              { label: 'Total intjäning', value: formatKronor(totals.data.totals.total_commission) },
              { label: 'Ordrar', value: formatCount(totals.data.totals.orders_count) },
              // Issue 30 point 4: under a holding period, the part of the class's earnings not yet payable.
              ...(totals.data.totals.pending_commission !== 0
                ? [
                    {
                      label: 'Väntande',
                      value: formatKronor(totals.data.totals.pending_commission),
                      note: 'Av intjäningen: köparna har ångerrätt, så den betalas ut senare.',
                    },
                  ]
                : []),
            ]}
          />
          {totals.data.participation.members > 0 && (
            <p className="flex items-center gap-2 text-sm font-medium text-ink">
              <Users className="size-4 text-brand" aria-hidden="true" />
              {participationText(totals.data.participation)}
            </p>
          )}
        </>
      )}
      {chart}
    </section>
  );
}
