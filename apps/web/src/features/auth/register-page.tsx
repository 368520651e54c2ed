import { Link } from 'react-router';
import { UserPlus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { paths } from '@/lib/paths';
import { AuthCard } from './components/auth-card';
import { PrivacyLink } from '@/features/privacy';

export function RegisterPage() {
  return (
    <AuthCard title="Registrera dig" intro="Sälj hållbara produkter och samla pengar till din klass eller förening.">
      <Button asChild variant="brand" size="lg" className="w-full">
        <Link to={paths.registerSeller}>
          <UserPlus aria-hidden="true" />
          Registrera som säljare
        </Link>
      </Button>
      <p className="mt-6 rounded-lg bg-slate-100 p-4 text-sm text-muted">
        Är du lärare eller ledare och vill administrera en grupp? Administratörer måste kontakta superadmin för att få ett konto.
      </p>
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
