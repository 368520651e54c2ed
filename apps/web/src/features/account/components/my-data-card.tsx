import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { TProfileResponse } from '@saljportalen/contract';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { forgetSignedInData } from '@/lib/offline-cache';
import { paths } from '@/lib/paths';
import { clearSession } from '@/lib/session';
import { errorMessage, notify, notifyFailure } from '@/lib/toast';
import { deleteAccountFormSchema, type DeleteAccountFormValues } from '../account-forms';
import { useDeleteAccount } from '../api/delete-account';
import { useExportAccount } from '../api/export-account';
import { showRefusalAtFields } from '@/lib/server-field-errors';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';

/** Issue 22: the person's own data: a copy of all of it, or all of it erased. */
export function MyDataCard({ email, account }: { email: string; account: TProfileResponse['account'] }) {
  const titleId = useId();
  const exportAccount = useExportAccount();
  const [deleting, setDeleting] = useState(false);

  const download = async () => {
    try {
      await exportAccount.mutateAsync();
      notify.success('Dina uppgifter är nedladdade');
    } catch (error) {
      notifyFailure('Kunde inte ladda ner uppgifterna', error);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>Mina uppgifter</CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        <section aria-labelledby={`${titleId}-export`} className="space-y-2">
          <h3 id={`${titleId}-export`} className="font-semibold text-ink">
            Ladda ner
          </h3>
          <p className="text-sm text-muted">
            {account.sells
              ? 'En fil med allt som sparas om dig: kontot, dina grupper och länkar, dina försäljningar, klick på din länk och avräkningar.'
              : 'En fil med allt som sparas om dig: kontot och vilka barn du har godkänt.'}
          </p>
          <Button variant="outline" onClick={() => void download()} disabled={exportAccount.isPending}>
            {exportAccount.isPending ? 'Laddar ner...' : 'Ladda ner mina uppgifter'}
          </Button>
        </section>
        <section aria-labelledby={`${titleId}-delete`} className="space-y-2 border-t border-line pt-6">
          <h3 id={`${titleId}-delete`} className="font-semibold text-ink">
            Radera kontot
          </h3>
          <p className="text-sm text-muted">
            Ditt namn, din e-post och dina inloggningar tas bort för alltid.
            {account.sells && ' Försäljningen finns kvar i klassens resultat, men utan ditt namn.'}
            {account.is_guardian &&
              ' Dina barns konton finns kvar, men du kan inte längre följa dem eller återkalla samtycket. Vill du att ett barns konto tas bort, återkalla samtycket under Mina barn först.'}
          </p>
          <Button variant="destructive" onClick={() => setDeleting(true)}>
            Radera mitt konto
          </Button>
        </section>
      </CardContent>
      <DeleteAccountDialog open={deleting} onOpenChange={setDeleting} email={email} />
    </Card>
  );
}

function DeleteAccountDialog({ open, onOpenChange, email }: { open: boolean; onOpenChange: (open: boolean) => void; email: string }) {
  const navigate = useNavigate();
  const deleteAccount = useDeleteAccount();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<DeleteAccountFormValues>({ resolver: zodResolver(deleteAccountFormSchema), defaultValues: { password: '' } });
  const { errors, isSubmitting } = form.formState;

  const close = (next: boolean) => {
    if (isSubmitting) return;
    if (!next) {
      form.reset();
      setRefusal(null);
    }
    onOpenChange(next);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setRefusal(null);
    try {
      await deleteAccount.mutateAsync({ password: values.password });
    } catch (error) {
      // A wrong password is said at the field; anything else (an account that cannot go yet) above the form.
      if (!showRefusalAtFields(form, error, ['password'])) setRefusal(errorMessage(error));
      return;
    }
    // The server has ended every session; forget this one and what it showed.
    clearSession();
    forgetSignedInData();
    notify.success('Ditt konto är raderat', 'Du är utloggad. Tack för att du sålde med oss!');
    navigate(paths.login, { replace: true });
  });

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Radera ditt konto?"
      description="Det går inte att ångra. Skriv ditt lösenord för att bekräfta att det är du."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {refusal && (
          <Alert tone="error" title="Kontot kunde inte raderas">
            {refusal}
          </Alert>
        )}
        <input type="email" autoComplete="username" value={email} readOnly hidden />
        <Field label="Lösenord" error={errors.password?.message}>
          <PasswordInput autoComplete="current-password" maxLength={TEXT_LIMITS.password} {...form.register('password')} />
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={() => close(false)} disabled={isSubmitting}>
            Avbryt
          </Button>
          <Button type="submit" variant="destructive" disabled={isSubmitting}>
            {isSubmitting ? 'Raderar...' : 'Radera mitt konto'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
