import type { GroupOption } from '../api/list-group-options';

export type GroupOptionsState = 'loading' | 'error' | 'ready';

/** The groups of a select, archived ones marked so, as the groups list names them (spec §2). */
export function GroupOptions({ groups }: { groups: GroupOption[] }) {
  return groups.map((group) => (
    <option key={group.id} value={String(group.id)}>
      {group.archived ? `${group.name} (Arkiverad)` : group.name}
    </option>
  ));
}

/** Said under a group select when its groups could not be read. */
export const groupsHint = (state: GroupOptionsState) =>
  state === 'error' ? 'Kunde inte hämta grupperna. Ladda om sidan och försök igen.' : undefined;
