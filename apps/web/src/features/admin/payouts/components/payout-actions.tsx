import { useRef, useState } from 'react';
import { CircleCheck, FileDown } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ApiError } from '@/lib/api-client';
import { formatDate, formatKronor } from '@/lib/format';
import { errorMessage, notify } from '@/lib/toast';
import { useDownloadPayoutPdf } from '../api/download-payout-pdf';
import { useMarkPayoutPaid } from '../api/mark-payout-paid';
import { PAYOUT_ACCOUNT_MISSING_MESSAGE, type TPayout } from '@saljportalen/contract';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';

const signedOut = (error: unknown) => error instanceof ApiError && error.isUnauthorized;

export const payoutPeriod = (payout: TPayout) => `${formatDate(payout.period_from)} – ${formatDate(payout.period_to)}`;

/** What a payout pays out, or, when its deductions are more than its commission, what the class pays back (issue 30 point 4). */
export const toPay = (payout: Pick<TPayout, 'amount_to_pay'>) =>
  payout.amount_to_pay < 0
    ? { label: 'Att få tillbaka', amount: formatKronor(-payout.amount_to_pay) }
    : { label: 'Att betala', amount: formatKronor(payout.amount_to_pay) };

/** Export PDF, and mark as paid while the payout is a draft (spec §2, §4). */
export function PayoutActions({ payout }: { payout: TPayout }) {
  const download = useDownloadPayoutPdf();
  const markPaid = useMarkPayoutPaid();
  const [confirming, setConfirming] = useState(false);
  const exportButton = useRef<HTMLButtonElement>(null);
  const markButton = useRef<HTMLButtonElement>(null);

  // The dialog has no trigger of its own to return focus to, so it is put back here: on the
  // mark button, or on export once the payout is paid and the mark button is gone.
  const closeDialog = (paid = false) => {
    setConfirming(false);
    setTimeout(() => (paid ? exportButton.current : markButton.current)?.focus(), 0);
  };
  // Names the payout for screen readers, where every row has the same buttons.
  const which = <span className="sr-only"> för avräkning nr {payout.id}</span>;

  const onDownload = () =>
    download.mutate(payout.id, {
      onError: (error) => !signedOut(error) && notify.error('Kunde inte ladda ner PDF', errorMessage(error)),
    });

  const onMarkPaid = () =>
    markPaid.mutate(payout.id, {
      onSuccess: () => {
        closeDialog(true);
        notify.success('Markerad som betald', `Avräkning nr ${payout.id} för ${payout.group_name}.`);
      },
      onError: (error) => {
        closeDialog();
        if (!signedOut(error)) notify.error('Kunde inte markera som betald', errorMessage(error));
      },
    });

  return (
    <div className="flex flex-wrap gap-2">
      <Button ref={exportButton} variant="outline" size="sm" onClick={onDownload} disabled={download.isPending}>
        <FileDown aria-hidden="true" />
        {download.isPending ? 'Laddar ner...' : 'Exportera PDF'}
        {which}
      </Button>
      {payout.status !== 'paid' && (
        <>
          <Button ref={markButton} variant="success" size="sm" onClick={() => setConfirming(true)}>
            <CircleCheck aria-hidden="true" />
            Markera som betald
            {which}
          </Button>
          <Dialog
            open={confirming}
            onOpenChange={(open) => !markPaid.isPending && (open ? setConfirming(true) : closeDialog())}
            title="Markera som betald?"
            description="En betald avräkning kan inte ändras tillbaka till utkast."
          >
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted">Avräkning</dt>
              <dd>Nr {payout.id}</dd>
              <dt className="text-muted">Grupp</dt>
              <dd>{payout.group_name}</dd>
              <dt className="text-muted">Period</dt>
              <dd>{payoutPeriod(payout)}</dd>
              <dt className="text-muted">{toPay(payout).label}</dt>
              <dd className="font-semibold tabular-nums">{toPay(payout).amount}</dd>
              {payout.receiving_account && (
                <>
                  <dt className="text-muted">Till</dt>
                  <dd className="tabular-nums">{payout.receiving_account.display}</dd>
                  <dt className="text-muted">Kontohavare</dt>
                  <dd>{payout.receiving_account.holder_name}</dd>
                </>
              )}
            </dl>
            {!payout.receiving_account && (
              <p role="alert" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
                {PAYOUT_ACCOUNT_MISSING_MESSAGE}{' '}
                <Link to={paths.adminGroup(payout.group_id)} className="font-medium text-brand underline underline-offset-4">
                  Till {payout.group_name}
                </Link>
              </p>
            )}
            <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={() => closeDialog()} disabled={markPaid.isPending}>
                Avbryt
              </Button>
              <Button variant="success" onClick={onMarkPaid} disabled={markPaid.isPending || !payout.receiving_account}>
                {markPaid.isPending ? 'Markerar...' : 'Markera som betald'}
              </Button>
            </div>
          </Dialog>
        </>
      )}
    </div>
  );
}
