import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { ZForgotPasswordRequestSchema, TEXT_LIMITS } from '@saljportalen/contract';
import { Link } from 'react-router';
import { MailCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { paths } from '@/lib/paths';
import { errorMessage, notify } from '@/lib/toast';
import { AuthCard } from './components/auth-card';
import { useRequestPasswordReset } from './api/forgot-password';

const forgotFormSchema = ZForgotPasswordRequestSchema;
type ForgotForm = z.infer<typeof forgotFormSchema>;

export function ForgotPasswordPage() {
  const requestReset = useRequestPasswordReset();
  const [sent, setSent] = useState(false);
  const form = useForm<ForgotForm>({ resolver: zodResolver(forgotFormSchema), defaultValues: { email: '' } });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await requestReset.mutateAsync(values);
      setSent(true);
    } catch (error) {
      notify.error('Ett fel uppstod', errorMessage(error));
    }
  });

  if (sent) {
    return (
      <AuthCard title="E-post skickat">
        <div className="flex gap-3">
          <MailCheck className="mt-0.5 size-6 shrink-0 text-brand" aria-hidden="true" />
          <p role="status">
            Om det finns ett konto med den e-postadressen har vi skickat en länk för att återställa lösenordet. Kolla din inkorg.
          </p>
        </div>
        <Button asChild variant="outline" className="mt-6 w-full">
          <Link to={paths.login}>Tillbaka till inloggningen</Link>
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Glömt lösenordet?" intro="Skriv din e-postadress så skickar vi en länk där du väljer ett nytt lösenord.">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="E-post" error={form.formState.errors.email?.message}>
          <Input type="email" autoComplete="email" inputMode="email" maxLength={TEXT_LIMITS.email} {...form.register('email')} />
        </Field>
        <Button type="submit" variant="brand" size="lg" className="w-full" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Skickar...' : 'Skicka länk'}
        </Button>
      </form>
      <Link to={paths.login} className="mt-6 inline-block text-sm font-medium text-brand underline-offset-4 hover:underline">
        Tillbaka till inloggningen
      </Link>
    </AuthCard>
  );
}
