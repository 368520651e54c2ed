import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

/** Issue 19: 'Arkivera' says what it does, naming the group, and asks first. */
export function ArchiveGroupDialog({
  open,
  onOpenChange,
  groupName,
  onArchive,
  pending,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  groupName: string;
  onArchive: () => Promise<void>;
  pending: boolean;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !pending && onOpenChange(next)}
      title={`Arkivera ${groupName}?`}
      description={`${groupName} arkiveras: eleverna kan inte längre sälja via sina länkar.`}
    >
      <p className="text-sm text-ink">
        Medlemmarna ser att gruppen är avslutad och dess slutliga siffror. Ordrar som kommer in med gruppens länkar efteråt väntar under
        Ordrar utan säljare. Gruppen kan återaktiveras.
      </p>
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
          Avbryt
        </Button>
        <Button variant="warning" onClick={() => void onArchive()} disabled={pending}>
          {pending ? 'Arkiverar...' : 'Arkivera'}
        </Button>
      </div>
    </Dialog>
  );
}
