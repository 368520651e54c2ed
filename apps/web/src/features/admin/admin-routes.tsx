import { Navigate } from 'react-router';
import { paths } from '@/lib/paths';

// The admin area arrives with issue 4; until then its routes lead to the dashboard.
export function AdminArea() {
  return <Navigate to={paths.dashboard} replace />;
}
