import { Landmark } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useClassPayoutAccount } from '../api/class-payout-account';

/**
 * The teacher sees where the class's commission is paid (issue 30 point 6): the kind of account,
 * its last four digits and the holder. Säljportalen sets it; the whole number is never shown here.
 */
export function ClassPayoutAccountCard({ groupId }: { groupId: number }) {
  const account = useClassPayoutAccount(groupId);
  if (account.isError) return null;
  return (
    <Card className="flex gap-4 p-5" role="region" aria-labelledby="class-payout-account-title">
      <Landmark className="mt-0.5 size-6 shrink-0 text-brand" aria-hidden="true" />
      <div className="min-w-0 space-y-1">
        <h2 id="class-payout-account-title" className="font-semibold text-ink">
          Utbetalning till klassen
        </h2>
        {account.isPending ? (
          <Skeleton className="h-5 w-64" />
        ) : account.data.payout_account ? (
          <p className="text-ink [overflow-wrap:anywhere]">
            Provisionen betalas till {account.data.payout_account.masked}, {account.data.payout_account.holder_name}.
          </p>
        ) : (
          <p className="text-ink">
            Inget konto är inlagt ännu. Säljportalen lägger in skolans eller föreningens konto innan klassen får sin första utbetalning.
          </p>
        )}
        <p className="text-sm text-muted">Kontakta Säljportalen om kontot ska ändras.</p>
      </div>
    </Card>
  );
}
