import { Share, SquarePlus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

/** spec §1: the three-step instruction for Safari on iPhone and iPad. */
export function IosInstallDialog({
  open,
  onOpenChange,
  onDone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Lägg till på hemskärmen" description="Så installerar du Säljportalen i Safari:">
      <ol className="space-y-4">
        <li className="flex gap-3">
          <span
            aria-hidden="true"
            className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand text-sm font-bold text-white"
          >
            1
          </span>
          <p>
            Tryck på <strong>Dela</strong> <Share className="inline size-4 align-text-bottom" aria-hidden="true" /> i Safaris verktygsfält.
          </p>
        </li>
        <li className="flex gap-3">
          <span
            aria-hidden="true"
            className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand text-sm font-bold text-white"
          >
            2
          </span>
          <p>
            Välj <strong>Lägg till på hemskärmen</strong> <SquarePlus className="inline size-4 align-text-bottom" aria-hidden="true" />.
          </p>
        </li>
        <li className="flex gap-3">
          <span
            aria-hidden="true"
            className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand text-sm font-bold text-white"
          >
            3
          </span>
          <p>
            Tryck på <strong>Lägg till</strong> uppe till höger.
          </p>
        </li>
      </ol>
      <Button variant="brand" className="mt-6 w-full" onClick={onDone}>
        Klar
      </Button>
    </Dialog>
  );
}
