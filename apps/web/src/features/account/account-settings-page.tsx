import { Navigate } from 'react-router';
import { paths } from '@/lib/paths';

// Account settings arrive with issue 3; until then the route leads to the dashboard.
export function AccountSettingsPage() {
  return <Navigate to={paths.dashboard} replace />;
}
