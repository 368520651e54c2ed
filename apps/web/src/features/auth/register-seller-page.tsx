import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { ZRegisterSellerFieldsSchema, guardianEmailIssue, TEXT_LIMITS } from '@saljportalen/contract';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { unprintableWarning } from '@/lib/printable';
import { Input } from '@/components/ui/input';
import { paths } from '@/lib/paths';
import { errorMessage, notify } from '@/lib/toast';
import { AuthCard } from './components/auth-card';
import { PasswordInput } from '@/components/ui/password-input';
import { useRegisterSeller } from './api/register-seller';
import { PrivacyLink } from '@/features/privacy';
import { showRefusalAtFields } from '@/lib/server-field-errors';

/**
 * The contract's registration rules. 'Är du under 13 år?' must be answered; a yes asks for a guardian's address (issue 22), checked by
 * the contract's own rule so the form and the server say the same thing.
 */
const registerFormSchema = ZRegisterSellerFieldsSchema.omit({ under_13: true, guardian_email: true })
  .extend({
    under_13: z.enum(['ja', 'nej'], { error: 'Svara på om du är under 13 år' }),
    guardian_email: z.string(),
  })
  .superRefine((value, context) => {
    if (value.under_13 !== 'ja') return;
    const issue = guardianEmailIssue({ under_13: true, email: value.email, guardian_email: value.guardian_email });
    const parsed = ZRegisterSellerFieldsSchema.shape.email.safeParse(value.guardian_email);
    const message = issue ?? (parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Ange en giltig e-postadress'));
    if (message) context.addIssue({ code: 'custom', path: ['guardian_email'], message });
  });
type RegisterFormInput = z.input<typeof registerFormSchema>;
const REGISTER_FIELD_ORDER = ['full_name', 'email', 'password', 'group_code', 'under_13', 'guardian_email'] as const;
type RegisterForm = z.output<typeof registerFormSchema>;

export function RegisterSellerPage() {
  const register = useRegisterSeller();
  const [registered, setRegistered] = useState<{ name: string; guardianEmail: string | null } | null>(null);
  const form = useForm<RegisterFormInput, unknown, RegisterForm>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { full_name: '', email: '', password: '', group_code: '', guardian_email: '' },
  });
  const under13 = form.watch('under_13') === 'ja';

  const onSubmit = form.handleSubmit(async ({ under_13, guardian_email, ...values }) => {
    const child = under_13 === 'ja';
    try {
      await register.mutateAsync({ ...values, under_13: child, ...(child ? { guardian_email: guardian_email.trim() } : {}) });
      // 'Registrering klar' replaces the form: an earlier 'Registrering misslyckades' is over.
      notify.clear();
      setRegistered({
        name: values.full_name.trim().split(/\s+/)[0] ?? values.full_name,
        guardianEmail: child ? guardian_email.trim() : null,
      });
    } catch (error) {
      showRefusalAtFields(form, error, REGISTER_FIELD_ORDER);
      notify.error('Registrering misslyckades', errorMessage(error));
    }
  });

  if (registered) {
    const intro = registered.guardianEmail
      ? `Välkommen, ${registered.name}! Vi har mejlat ${registered.guardianEmail}. När din vårdnadshavare har godkänt kontot blir din personliga länk aktiv.`
      : `Välkommen, ${registered.name}! Nu kan du börja sälja med din personliga länk.`;
    return (
      <AuthCard title="Registrering klar" intro={intro}>
        <Button asChild variant="brand" size="lg" className="w-full">
          <Link to={paths.dashboard}>Gå till din översikt</Link>
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Registrera som säljare" intro="Du behöver gruppkoden från din lärare eller ledare.">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Namn" warning={unprintableWarning(form.watch('full_name'))} error={form.formState.errors.full_name?.message}>
          <Input autoComplete="name" maxLength={TEXT_LIMITS.name} {...form.register('full_name')} />
        </Field>
        <Field label="E-post" error={form.formState.errors.email?.message}>
          <Input type="email" autoComplete="email" inputMode="email" maxLength={TEXT_LIMITS.email} {...form.register('email')} />
        </Field>
        <Field label="Lösenord" hint="Minst 8 tecken." error={form.formState.errors.password?.message}>
          <PasswordInput autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.register('password')} />
        </Field>
        <Field label="Gruppkod" error={form.formState.errors.group_code?.message}>
          <Input
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            className="uppercase tracking-widest"
            {...form.register('group_code')}
          />
        </Field>
        <fieldset className="space-y-2" aria-describedby={form.formState.errors.under_13 ? 'under-13-error' : undefined}>
          <legend className="text-sm font-medium text-ink">Är du under 13 år?</legend>
          <div className="flex gap-6">
            {(['ja', 'nej'] as const).map((answer) => (
              <label key={answer} className="flex min-h-11 items-center gap-2 text-base text-ink">
                <input
                  type="radio"
                  value={answer}
                  className="size-5 accent-brand"
                  aria-invalid={form.formState.errors.under_13 ? true : undefined}
                  {...form.register('under_13')}
                />
                {answer === 'ja' ? 'Ja' : 'Nej'}
              </label>
            ))}
          </div>
          {form.formState.errors.under_13 && (
            <p id="under-13-error" className="text-sm font-medium text-danger">
              {form.formState.errors.under_13.message}
            </p>
          )}
        </fieldset>
        {under13 && (
          <Field
            label="Vårdnadshavares e-post"
            hint="Den som är under 13 år behöver en vårdnadshavares godkännande. Vi mejlar en länk för att godkänna kontot."
            error={form.formState.errors.guardian_email?.message}
          >
            <Input type="email" autoComplete="off" inputMode="email" maxLength={TEXT_LIMITS.email} {...form.register('guardian_email')} />
          </Field>
        )}
        <Button type="submit" variant="brand" size="lg" className="w-full" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Registrerar...' : 'Registrera'}
        </Button>
      </form>
      <p className="mt-6 text-sm">
        Har du redan ett konto?{' '}
        <Link to={paths.login} className="font-medium text-brand underline-offset-4 hover:underline">
          Logga in
        </Link>
      </p>
      <PrivacyLink />
    </AuthCard>
  );
}
