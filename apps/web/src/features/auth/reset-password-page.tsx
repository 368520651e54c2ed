import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Alert } from '@/components/ui/alert';
import { paths } from '@/lib/paths';
import { errorMessage, notify } from '@/lib/toast';
import { AuthCard } from './components/auth-card';
import { PasswordInput } from '@/components/ui/password-input';
import { useResetPassword, useVerifyResetCode } from './api/reset-password';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';

const resetFormSchema = z
  .object({
    new_password: z.string().min(8, 'Lösenordet måste vara minst 8 tecken'),
    confirm_password: z.string(),
  })
  .refine((values) => values.new_password === values.confirm_password, { message: 'Lösenorden matchar inte', path: ['confirm_password'] });
type ResetForm = z.infer<typeof resetFormSchema>;

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const code = params.get('code');
  // The welcome mail's 'Välj lösenord' link: the same kind of code, for a first password.
  const welcome = params.get('valkommen') === '1';
  const navigate = useNavigate();
  const verification = useVerifyResetCode(code);
  const reset = useResetPassword();
  const form = useForm<ResetForm>({ resolver: zodResolver(resetFormSchema), defaultValues: { new_password: '', confirm_password: '' } });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await reset.mutateAsync({ code: code!, new_password: values.new_password });
      if (welcome) notify.success('Lösenord sparat', 'Logga in med din e-postadress och ditt nya lösenord.');
      else notify.success('Lösenord uppdaterat', 'Du loggas nu ut.');
      navigate(paths.login, { replace: true });
    } catch (error) {
      notify.error('Fel vid uppdatering', errorMessage(error));
    }
  });

  if (code && verification.isPending) {
    return (
      <AuthCard title={welcome ? 'Välj lösenord' : 'Återställ lösenord'}>
        <p role="status" className="text-muted">
          Kontrollerar länken...
        </p>
      </AuthCard>
    );
  }

  if (!code || verification.isError) {
    return (
      <AuthCard title="Ogiltig återställningslänk">
        <Alert tone="error" title="Länken fungerar inte">
          Den kan ha använts redan eller gått ut. Begär en ny länk och försök igen.
        </Alert>
        <div className="mt-6 flex flex-col gap-3">
          <Button asChild variant="brand">
            <Link to={paths.forgotPassword}>Begär en ny länk</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={paths.login}>Till inloggningen</Link>
          </Button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={welcome ? 'Välj lösenord' : 'Välj ett nytt lösenord'}
      intro={welcome ? 'Välkommen till Säljportalen! Välj lösenordet du ska logga in med.' : undefined}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Nytt lösenord" hint="Minst 8 tecken." error={form.formState.errors.new_password?.message}>
          <PasswordInput autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.register('new_password')} />
        </Field>
        <Field label="Bekräfta nytt lösenord" error={form.formState.errors.confirm_password?.message}>
          <PasswordInput autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.register('confirm_password')} />
        </Field>
        <Button type="submit" variant="brand" size="lg" className="w-full" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Sparar...' : 'Spara nytt lösenord'}
        </Button>
      </form>
    </AuthCard>
  );
}
