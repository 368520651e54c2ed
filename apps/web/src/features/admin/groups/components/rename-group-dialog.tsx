import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

/**
 * spec §2 rename prompt. spec §5: the name is trimmed, and an empty or unchanged name is ignored
 * (the dialog closes without asking the server).
 */
export function RenameGroupDialog({
  open,
  onOpenChange,
  currentName,
  onRename,
  pending,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  currentName: string;
  onRename: (name: string) => Promise<void>;
  pending: boolean;
}) {
  const [name, setName] = useState(currentName);
  useEffect(() => {
    if (open) setName(currentName);
  }, [open, currentName]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '' || trimmed === currentName) {
      onOpenChange(false);
      return;
    }
    await onRename(trimmed);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Byt namn på gruppen"
      description="Ange gruppens nya namn. Gruppkoden ändras inte."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Nytt gruppnamn">
          <Input value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" maxLength={120} />
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Avbryt
          </Button>
          <Button type="submit" variant="brand" disabled={pending}>
            {pending ? 'Sparar...' : 'Spara namn'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
