import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorMessage, notify } from '@/lib/toast';
import { isSessionFailure } from '../../admin-page-helpers';
import { useEraseUser } from '../api/erase-user';
import { genitive } from '@/lib/format';

/** Issue 22: 'Radera konto' in the seller detail asks first, naming the person and what stays. */
export function EraseUserDialog({
  open,
  onOpenChange,
  userId,
  fullName,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: number;
  fullName: string;
}) {
  const eraseUser = useEraseUser();
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = (next: boolean) => {
    if (eraseUser.isPending) return;
    if (!next) setRefusal(null);
    onOpenChange(next);
  };
  const erase = async () => {
    setRefusal(null);
    try {
      await eraseUser.mutateAsync(userId);
    } catch (error) {
      if (!isSessionFailure(error)) setRefusal(errorMessage(error));
      return;
    }
    notify.success('Kontot är raderat', `${fullName} visas nu som Borttagen säljare.`);
    onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={close} title={`Radera ${genitive(fullName)} konto?`} description="Det går inte att ångra.">
      <div className="space-y-4">
        {refusal && (
          <Alert tone="error" title="Kontot kunde inte raderas">
            {refusal}
          </Alert>
        )}
        <p className="text-sm text-ink">
          Namn, e-post, telefon och inloggningar tas bort och den personliga länken slutar fungera. Ordrar och avräkningar finns kvar under
          Borttagen säljare, så gruppens summor ändras inte. Raderingen loggas i händelseloggen.
        </p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => close(false)} disabled={eraseUser.isPending}>
            Avbryt
          </Button>
          <Button variant="destructive" onClick={() => void erase()} disabled={eraseUser.isPending}>
            {eraseUser.isPending ? 'Raderar...' : 'Radera konto'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
