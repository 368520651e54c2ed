import { useQuery } from '@tanstack/react-query';
import type { TAdminGroupOption, TAdminGroupOptionsResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';
import type { ComboboxOption } from '@/components/ui/combobox';

export type GroupOption = TAdminGroupOption;

/**
 * Every group, archived ones included (a refund after an archived group's last payout still has
 * to be settled), in Swedish alphabetical order from the server: id, name and state only, so a
 * national list of thousands is one small answer.
 */
export async function fetchGroupOptions(): Promise<GroupOption[]> {
  const answer = await apiJson<TAdminGroupOptionsResponse>('/api/admin/groups/options');
  return answer.items;
}

/** Under the admin root: creating, renaming or archiving a group reloads the pickers too. */
export const groupOptionsQuery = () => ({
  queryKey: [ADMIN_QUERY_ROOT, 'group-options'] as const,
  queryFn: fetchGroupOptions,
  retry: retryServerFailureOnce,
});

export const useGroupOptions = () => useQuery(groupOptionsQuery());

/** A group as a picker shows it, archived ones marked as the groups list marks them (spec §2). */
export const groupChoice = (group: GroupOption): ComboboxOption => ({
  value: String(group.id),
  label: group.archived ? `${group.name} (Arkiverad)` : group.name,
});

export type GroupOptionsState = 'loading' | 'error' | 'ready';

export const groupOptionsState = (query: { isPending: boolean; isError: boolean }): GroupOptionsState =>
  query.isPending ? 'loading' : query.isError ? 'error' : 'ready';

/** Said under a group picker when its groups could not be read. */
export const groupsHint = (state: GroupOptionsState) =>
  state === 'error' ? 'Kunde inte hämta grupperna. Ladda om sidan och försök igen.' : undefined;
