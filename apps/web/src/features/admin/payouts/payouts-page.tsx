import { useId, useState } from 'react';
import { FileDown } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useSearchParams } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { formatCount, formatKronor, roundToOre } from '@/lib/format';
import type { TPayout } from '@saljportalen/contract';
import { downloadPayoutsCsv, usePayouts, type PayoutFilters } from './api/list-payouts';
import { groupOptionsState, useGroupOptions } from '../groups';
import { CreatePayoutForm } from './components/create-payout-form';
import { PayoutFiltersForm } from './components/payout-filters';
import { PayoutsList, PayoutsListSkeleton } from './components/payouts-list';
import { LoadError } from '@/components/ui/load-error';
import { errorMessage, notify } from '@/lib/toast';
import { OutstandingPayouts, type PayoutPrefill } from './components/outstanding-payouts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The applied filters live in the address, so a filtered list survives a reload and the back button. */
function readFilters(params: URLSearchParams): PayoutFilters {
  const status = params.get('status');
  const groupId = params.get('group_id') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return {
    status: status === 'draft' || status === 'paid' ? status : 'all',
    groupId: /^\d+$/.test(groupId) ? groupId : '',
    from: ISO_DATE.test(from) ? from : '',
    to: ISO_DATE.test(to) ? to : '',
  };
}

function toParams(filters: PayoutFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.groupId) params.set('group_id', filters.groupId);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  return params;
}

function summary(payouts: TPayout[]): string {
  const count = payouts.length === 1 ? '1 avräkning' : `${formatCount(payouts.length)} avräkningar`;
  const commission = roundToOre(payouts.reduce((sum, payout) => sum + payout.amount_to_pay, 0));
  return `${count} · ${formatKronor(commission)} i provision`;
}

/** spec §2 /admin/payouts: create a payout, filter the list, export PDFs and mark payouts paid. */
export function PayoutsPage() {
  const listHeadingId = useId();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const groups = useGroupOptions();
  const payouts = usePayouts(filters);
  const groupsState = groupOptionsState(groups);
  // A new object each time 'Avräkna' is pressed, so the same group twice fills the form again.
  const [prefill, setPrefill] = useState<PayoutPrefill | null>(null);
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadPayoutsCsv(filters);
    } catch (error) {
      if (!(error instanceof ApiError && error.isUnauthorized)) notify.error('Export misslyckades', errorMessage(error));
    } finally {
      setExporting(false);
    }
  };

  const applyFilters = (next: PayoutFilters) => {
    const nextParams = toParams(next);
    // The same filters again: the button still means "fetch the list now".
    if (nextParams.toString() === toParams(filters).toString()) void payouts.refetch();
    else setParams(nextParams);
  };

  let content;
  if (payouts.isPending) {
    content = <PayoutsListSkeleton />;
  } else if (payouts.isError) {
    // A lost session is already on its way to the login page (spec §8).
    content =
      payouts.error instanceof ApiError && payouts.error.isUnauthorized ? null : (
        <LoadError title="Kunde inte hämta avräkningar" query={payouts} />
      );
  } else if (payouts.data.length === 0) {
    content = <p className="rounded-xl border border-dashed border-line bg-white p-6 text-center text-muted">Inga avräkningar.</p>;
  } else {
    content = <PayoutsList payouts={payouts.data} />;
  }

  return (
    <div className="space-y-8">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold text-ink">Avräkningar</h1>
        <p className="text-muted">Avräkna gruppernas provision per period, ladda ner underlaget som PDF och markera det som betalt.</p>
      </div>

      <CreatePayoutForm groups={groups.data ?? []} groupsState={groupsState} prefill={prefill} />

      <OutstandingPayouts onSettle={setPrefill} />

      <section aria-labelledby={listHeadingId} className="space-y-4">
        <h2 id={listHeadingId} className="text-lg font-semibold text-ink">
          Alla avräkningar
        </h2>
        <PayoutFiltersForm
          key={params.toString()}
          initial={filters}
          groups={groups.data ?? []}
          groupsState={groupsState}
          onApply={applyFilters}
        />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p role="status" className="text-sm text-muted">
            {payouts.isPending ? 'Hämtar avräkningar...' : payouts.isSuccess ? summary(payouts.data) : ''}
          </p>
          <Button variant="outline" size="sm" onClick={() => void exportCsv()} disabled={exporting}>
            <FileDown aria-hidden="true" />
            {exporting ? 'Exporterar...' : 'Exportera CSV'}
          </Button>
        </div>
        <div aria-busy={payouts.isFetching} className={payouts.isPlaceholderData ? 'opacity-60' : undefined}>
          {content}
        </div>
      </section>
    </div>
  );
}
