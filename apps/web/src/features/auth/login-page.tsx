import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Alert } from '@/components/ui/alert';
import { paths } from '@/lib/paths';
import { errorMessage, notify } from '@/lib/toast';
import { ApiError } from '@/lib/api-client';
import { AuthCard } from './components/auth-card';
import { PasswordInput } from './components/password-input';
import { useLogin } from './api/login';

const loginFormSchema = z.object({
  email: z.string().trim().min(1, 'E-post krävs'),
  password: z.string().min(1, 'Lösenord krävs'),
});
type LoginForm = z.infer<typeof loginFormSchema>;

/** The failure text under 'Inloggning misslyckades' (spec §8 fallbacks). */
function loginFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return 'Fel e-postadress eller lösenord';
  return errorMessage(error);
}

export function LoginForm({ onSignedIn, submitLabel = 'Logga in' }: { onSignedIn: () => void | Promise<void>; submitLabel?: string }) {
  const login = useLogin();
  const form = useForm<LoginForm>({ resolver: zodResolver(loginFormSchema), defaultValues: { email: '', password: '' } });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await login.mutateAsync(values);
      notify.success('Inloggning lyckades');
      await onSignedIn();
    } catch (error) {
      notify.error('Inloggning misslyckades', loginFailureMessage(error));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field label="E-post" error={form.formState.errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" {...form.register('email')} />
      </Field>
      <Field label="Lösenord" error={form.formState.errors.password?.message}>
        <PasswordInput autoComplete="current-password" {...form.register('password')} />
      </Field>
      <Button type="submit" variant="brand" size="lg" className="w-full" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? 'Loggar in...' : submitLabel}
      </Button>
    </form>
  );
}

export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const expired = params.get('expired') === '1';
  return (
    <AuthCard title="Logga in" intro="Logga in för att se din försäljning och din personliga länk.">
      {expired && (
        <Alert tone="info" title="Din session har gått ut" className="mb-4">
          Logga in igen för att fortsätta.
        </Alert>
      )}
      <LoginForm onSignedIn={() => navigate(paths.dashboard, { replace: true })} />
      <div className="mt-6 flex flex-col gap-2 text-sm sm:flex-row sm:justify-between">
        <Link to={paths.forgotPassword} className="font-medium text-brand underline-offset-4 hover:underline">
          Glömt lösenordet?
        </Link>
        <Link to={paths.register} className="font-medium text-brand underline-offset-4 hover:underline">
          Inget konto? Registrera dig
        </Link>
      </div>
    </AuthCard>
  );
}
