import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { ZRedeemSlipRequestSchema, TEXT_LIMITS, type TRedeemSlipRequest } from '@saljportalen/contract';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { paths } from '@/lib/paths';
import { showRefusalAtFields } from '@/lib/server-field-errors';
import { notify, notifyFailure } from '@/lib/toast';
import { AuthCard } from './components/auth-card';
import { useRedeemSlip } from './api/redeem-slip';

/**
 * `/forsta-inloggning` (issue 31): a pupil the teacher added from a class list types the username
 * and the one-time code of the printed slip and chooses a password; then they are signed in.
 */
export function FirstSignInPage() {
  const navigate = useNavigate();
  const redeem = useRedeemSlip();
  const form = useForm<TRedeemSlipRequest>({
    resolver: zodResolver(ZRedeemSlipRequestSchema),
    defaultValues: { username: '', code: '', new_password: '' },
  });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await redeem.mutateAsync(values);
      notify.success('Lösenord sparat', 'Nästa gång loggar du in med ditt användarnamn och lösenordet.');
      navigate(paths.dashboard, { replace: true });
    } catch (error) {
      if (!showRefusalAtFields(form, error, ['username', 'code', 'new_password'])) notifyFailure('Det gick inte att logga in', error);
    }
  });
  return (
    <AuthCard
      title="Första inloggningen"
      intro="Skriv användarnamnet och engångskoden från lappen du fick av din lärare, och välj ett eget lösenord."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Användarnamn" error={errors.username?.message}>
          <Input
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={TEXT_LIMITS.email}
            {...form.register('username')}
          />
        </Field>
        <Field label="Engångskod" hint="Till exempel K7PM-3XQA." error={errors.code?.message}>
          <Input autoComplete="one-time-code" autoCapitalize="characters" spellCheck={false} maxLength={40} {...form.register('code')} />
        </Field>
        <Field label="Nytt lösenord" hint="Minst 8 tecken." error={errors.new_password?.message}>
          <PasswordInput autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.register('new_password')} />
        </Field>
        <Button type="submit" variant="brand" size="lg" className="w-full" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Sparar...' : 'Spara lösenord och logga in'}
        </Button>
      </form>
      <p className="mt-6 text-sm">
        <Link to={paths.login} className="font-medium text-brand underline-offset-4 hover:underline">
          Har du redan ett lösenord? Logga in
        </Link>
      </p>
    </AuthCard>
  );
}
