import { Link, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '@/lib/paths';
import { superadminCheckQuery } from '@/features/admin-access';
import { AuthCard } from './components/auth-card';
import { LoginForm } from './login-page';

/** spec §2: after sign-in the admin overview is tried; /admin if it works, otherwise /dashboard. */
export function AdminLoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const afterSignIn = async () => {
    try {
      await queryClient.fetchQuery(superadminCheckQuery);
      navigate(paths.admin, { replace: true });
    } catch {
      navigate(paths.dashboard, { replace: true });
    }
  };
  return (
    <AuthCard title="Admin-inloggning" intro="För superadministratörer av Säljportalen.">
      <LoginForm onSignedIn={afterSignIn} />
      <div className="mt-6 text-sm">
        <Link to={paths.forgotPassword} className="font-medium text-brand underline-offset-4 hover:underline">
          Glömt lösenordet?
        </Link>
      </div>
    </AuthCard>
  );
}
