import { useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { FRESHNESS } from '@/lib/query-client';

/**
 * spec §6: a superadmin is whoever may read the admin overview. The probe never signs anyone
 * out: a seller's 403 here only means "not a superadmin".
 */
export const fetchSuperadminCheck = () => apiJson<unknown>('/api/admin/overview', { signOutOnUnauthorized: false });

export const superadminCheckQuery = {
  queryKey: ['superadmin-check'] as const,
  queryFn: fetchSuperadminCheck,
  staleTime: FRESHNESS.superadminCheck,
  retry: false,
} as const;

export function useIsSuperadmin(enabled = true): boolean {
  const { isSuccess } = useQuery({ ...superadminCheckQuery, enabled });
  return isSuccess;
}
