import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { ZRegisterSellerRequestSchema } from '@saljportalen/contract';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { paths } from '@/lib/paths';
import { errorMessage, notify } from '@/lib/toast';
import { AuthCard } from './components/auth-card';
import { PasswordInput } from '@/components/ui/password-input';
import { useRegisterSeller } from './api/register-seller';
import { PrivacyLink } from '@/features/privacy';

/** The contract's registration rules; an empty password is named as missing before it is too short. */
const registerFormSchema = ZRegisterSellerRequestSchema.extend({
  password: z.string().min(1, 'Lösenord krävs').pipe(ZRegisterSellerRequestSchema.shape.password),
});
type RegisterForm = z.infer<typeof registerFormSchema>;

export function RegisterSellerPage() {
  const register = useRegisterSeller();
  const [registeredName, setRegisteredName] = useState<string | null>(null);
  const form = useForm<RegisterForm>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { full_name: '', email: '', password: '', group_code: '' },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await register.mutateAsync(values);
      // 'Registrering klar' replaces the form: an earlier 'Registrering misslyckades' is over.
      notify.clear();
      setRegisteredName(values.full_name.trim().split(/\s+/)[0] ?? values.full_name);
    } catch (error) {
      notify.error('Registrering misslyckades', errorMessage(error));
    }
  });

  if (registeredName) {
    return (
      <AuthCard title="Registrering klar" intro={`Välkommen, ${registeredName}! Nu kan du börja sälja med din personliga länk.`}>
        <Button asChild variant="brand" size="lg" className="w-full">
          <Link to={paths.dashboard}>Gå till din översikt</Link>
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Registrera som säljare" intro="Du behöver gruppkoden från din lärare eller ledare.">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Namn" error={form.formState.errors.full_name?.message}>
          <Input autoComplete="name" {...form.register('full_name')} />
        </Field>
        <Field label="E-post" error={form.formState.errors.email?.message}>
          <Input type="email" autoComplete="email" inputMode="email" {...form.register('email')} />
        </Field>
        <Field label="Lösenord" hint="Minst 8 tecken." error={form.formState.errors.password?.message}>
          <PasswordInput autoComplete="new-password" {...form.register('password')} />
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
