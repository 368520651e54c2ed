import { useId } from 'react';
import { Link } from 'react-router';
import { FilePlus2 } from 'lucide-react';
import type { TOutstandingPayout } from '@saljportalen/contract';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { paths } from '@/lib/paths';
import { notify, notifyFailure } from '@/lib/toast';
import { useCreatePayout } from '../api/create-payout';
import { useOutstandingPayouts } from '../api/list-outstanding-payouts';
import { amountText } from './outstanding-payouts';

function EndedCampaign({ item }: { item: TOutstandingPayout & { ended_campaign: NonNullable<TOutstandingPayout['ended_campaign']> } }) {
  const create = useCreatePayout();
  const onCreate = async () => {
    if (create.isPending) return;
    try {
      const result = await create.mutateAsync({ group_id: item.group_id, from: item.period_from, to: item.period_to, auto_archive: false });
      if (result.created) notify.success(`Avräkningen för ${item.group_name} är skapad`);
      else notify.success('Det fanns inget att avräkna');
    } catch (error) {
      notifyFailure('Kunde inte skapa avräkningen', error);
    }
  };
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-line bg-white p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-semibold text-ink [overflow-wrap:anywhere]">{item.group_name}</p>
        <p className="text-sm text-muted">
          Försäljningen pågick {formatDate(item.ended_campaign.starts_on)} – {formatDate(item.ended_campaign.ends_on)}. Förslag: avräkna{' '}
          {formatDate(item.period_from)} – {formatDate(item.period_to)}.
        </p>
      </div>
      <div className="flex flex-col gap-2 sm:items-end">
        <p className="font-semibold tabular-nums text-ink">{amountText(item)}</p>
        <Button variant="brand" size="sm" onClick={() => void onCreate()} aria-disabled={create.isPending}>
          <FilePlus2 aria-hidden="true" />
          Skapa avräkning<span className="sr-only"> för {item.group_name}</span>
        </Button>
      </div>
    </li>
  );
}

/**
 * 'Att avräkna' on the superadmin's overview (issue 31 point 4): each class whose campaign has ended
 * and been closed out, with a payout over its unsettled days, created with one click.
 */
export function EndedCampaignsToSettle() {
  const headingId = useId();
  const outstanding = useOutstandingPayouts();
  if (outstanding.isPending) return <Skeleton className="h-24 w-full" />;
  if (outstanding.isError) return <LoadError title="Kunde inte hämta avslutade försäljningar" query={outstanding} />;
  const ended = outstanding.data.filter((item): item is Parameters<typeof EndedCampaign>[0]['item'] => item.ended_campaign !== null);
  return (
    <Card className="space-y-3 p-4 sm:p-5" role="region" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold text-ink">
          Att avräkna
        </h2>
        <Link to={paths.adminPayouts} className="text-sm font-medium text-brand underline-offset-4 hover:underline">
          Alla avräkningar
        </Link>
      </div>
      {ended.length === 0 ? (
        <p className="text-muted">Inga avslutade försäljningar väntar på avräkning.</p>
      ) : (
        <ul className="space-y-3">
          {ended.map((item) => (
            <EndedCampaign key={item.group_id} item={item} />
          ))}
        </ul>
      )}
    </Card>
  );
}
