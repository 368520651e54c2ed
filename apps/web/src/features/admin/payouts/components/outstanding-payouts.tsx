import { useId } from 'react';
import { FilePlus2 } from 'lucide-react';
import type { TOutstandingPayout } from '@saljportalen/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api-client';
import { formatCount, formatDate, formatKronor } from '@/lib/format';
import { useOutstandingPayouts } from '../api/list-outstanding-payouts';

/** What settling a group's outstanding lines would need: its group and the days they are booked on. */
export interface PayoutPrefill {
  group_id: string;
  from: string;
  to: string;
}

/** What settling a row means in money: paid out, or owed back. */
export function amountText(item: Pick<TOutstandingPayout, 'amount_to_pay'>): string {
  return item.amount_to_pay < 0
    ? `Att få tillbaka ${formatKronor(-item.amount_to_pay)}`
    : `Att betala ut ${formatKronor(item.amount_to_pay)}`;
}

/**
 * 'Att reglera' (issue 19, decision 028): refunds after a payout are owed back, and an archived
 * group's unsettled lines may never meet another payout. Each group's row fills in the form above
 * with the period that settles it.
 */
export function OutstandingPayouts({ onSettle }: { onSettle: (prefill: PayoutPrefill) => void }) {
  const headingId = useId();
  const outstanding = useOutstandingPayouts();

  let content;
  if (outstanding.isPending) {
    content = <Skeleton className="h-16 w-full" aria-hidden="true" />;
  } else if (outstanding.isError) {
    content =
      outstanding.error instanceof ApiError && outstanding.error.isUnauthorized ? null : (
        <LoadError title="Kunde inte hämta vad som är att reglera" query={outstanding} />
      );
  } else if (outstanding.data.length === 0) {
    content = <p className="rounded-xl border border-dashed border-line bg-white p-4 text-center text-muted">Inget att reglera.</p>;
  } else {
    content = (
      <ul className="space-y-3">
        {outstanding.data.map((item) => (
          <li
            key={item.group_id}
            className="flex flex-col gap-3 rounded-xl border border-line bg-white p-4 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2 font-semibold text-ink">
                {item.group_name}
                {item.archived ? <Badge variant="warning">Arkiverad</Badge> : <Badge variant="success">Aktiv</Badge>}
                {item.ended_campaign && <Badge>Försäljningen avslutad</Badge>}
              </p>
              <p className="text-sm text-muted">
                {item.lines_count === 1 ? '1 orderrad' : `${formatCount(item.lines_count)} orderrader`} · {formatDate(item.period_from)} –{' '}
                {formatDate(item.period_to)}
              </p>
            </div>
            <div className="flex flex-col gap-2 sm:items-end">
              <p className={`font-semibold tabular-nums ${item.amount_to_pay < 0 ? 'text-red-700' : 'text-ink'}`}>{amountText(item)}</p>
              <Button
                variant="outline"
                size="sm"
                onClick={() => onSettle({ group_id: String(item.group_id), from: item.period_from, to: item.period_to })}
              >
                <FilePlus2 aria-hidden="true" />
                Avräkna<span className="sr-only"> {item.group_name}</span>
              </Button>
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="space-y-1">
        <h2 id={headingId} className="text-lg font-semibold text-ink">
          Att reglera
        </h2>
        <p className="text-sm text-muted">
          Återbetalningar efter en avräkning, ordrar i arkiverade grupper och klasser vars försäljning är avslutad, som ingen avräkning har
          tagit med ännu. Avräkna perioden för att reglera dem.
        </p>
      </div>
      {content}
    </section>
  );
}
