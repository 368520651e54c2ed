import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { ZRenameGroupRequestSchema } from '@saljportalen/contract';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { unprintableWarning } from '@/lib/printable';
import { Input } from '@/components/ui/input';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';

/** The contract's rule for the new name: one line, trimmed, at most 120 characters, no web address. */
const renameFormSchema = z.object({ name: ZRenameGroupRequestSchema.shape.name });
type RenameFormValues = z.infer<typeof renameFormSchema>;

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
  const form = useForm<RenameFormValues>({ resolver: zodResolver(renameFormSchema), defaultValues: { name: currentName } });
  const reset = form.reset;
  useEffect(() => {
    if (open) reset({ name: currentName });
  }, [open, currentName, reset]);

  const onSubmit = form.handleSubmit(async ({ name }) => {
    if (name === '' || name === currentName) {
      onOpenChange(false);
      return;
    }
    await onRename(name);
  });

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Byt namn på gruppen"
      description="Ange gruppens nya namn. Gruppkoden ändras inte."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Nytt gruppnamn" warning={unprintableWarning(form.watch('name'))} error={form.formState.errors.name?.message}>
          <Input autoComplete="off" maxLength={TEXT_LIMITS.groupName} {...form.register('name')} />
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
