import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Alert } from '@/components/ui/alert';
import { paths } from '@/lib/paths';
import { errorMessage, notify } from '@/lib/toast';
import { ApiError } from '@/lib/api-client';
import { refusedFields } from '@/lib/server-field-errors';
import { AuthCard } from './components/auth-card';
import { PasswordInput } from '@/components/ui/password-input';
import { useLogin } from './api/login';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';

interface LoginValues {
  email: string;
  password: string;
}
type LoginErrors = Partial<Record<keyof LoginValues, string>>;

/**
 * The sign-in form's two checks, written out: the first page a phone loads carries no form
 * library or schema library for two required fields (issue 7's JavaScript budget).
 */
export function validateLogin(values: LoginValues): LoginErrors {
  const errors: LoginErrors = {};
  if (!values.email.trim()) errors.email = 'E-post krävs';
  if (!values.password) errors.password = 'Lösenord krävs';
  return errors;
}

/** The failure text under 'Inloggning misslyckades' (spec §8 fallbacks). */
function loginFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return 'Fel e-postadress eller lösenord';
  return errorMessage(error);
}

export function LoginForm({ onSignedIn, submitLabel = 'Logga in' }: { onSignedIn: () => void | Promise<void>; submitLabel?: string }) {
  const login = useLogin();
  const email = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<LoginErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const values = (): LoginValues => ({ email: email.current?.value ?? '', password: password.current?.value ?? '' });
  // Checked on submit; after the first attempt, again on every change (so an error goes as it is fixed).
  const recheck = () => {
    if (submitted) setErrors(validateLogin(values()));
  };
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setSubmitted(true);
    const current = values();
    const found = validateLogin(current);
    setErrors(found);
    if (found.email) return email.current?.focus();
    if (found.password) return password.current?.focus();
    setSubmitting(true);
    try {
      await login.mutateAsync({ email: current.email.trim(), password: current.password });
      notify.success('Inloggning lyckades');
      await onSignedIn();
    } catch (error) {
      const refused = Object.fromEntries(refusedFields(error).map((issue) => [issue.field, issue.message])) as LoginErrors;
      setErrors(refused);
      if (refused.email) email.current?.focus();
      else if (refused.password) password.current?.focus();
      notify.error('Inloggning misslyckades', loginFailureMessage(error));
    } finally {
      setSubmitting(false);
    }
  };
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {/* An address, or the username of a pupil a teacher added from a class list (issue 31). */}
      <Field label="E-post eller användarnamn" error={errors.email}>
        <Input
          ref={email}
          name="email"
          type="text"
          maxLength={TEXT_LIMITS.email}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          inputMode="email"
          onChange={recheck}
        />
      </Field>
      <Field label="Lösenord" error={errors.password}>
        <PasswordInput ref={password} name="password" maxLength={TEXT_LIMITS.password} autoComplete="current-password" onChange={recheck} />
      </Field>
      <Button type="submit" variant="brand" size="lg" className="w-full" disabled={submitting}>
        {submitting ? 'Loggar in...' : submitLabel}
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
        <Link to={paths.firstSignIn} className="font-medium text-brand underline-offset-4 hover:underline">
          Har du en inloggningslapp?
        </Link>
        <Link to={paths.register} className="font-medium text-brand underline-offset-4 hover:underline">
          Inget konto? Registrera dig
        </Link>
      </div>
    </AuthCard>
  );
}
