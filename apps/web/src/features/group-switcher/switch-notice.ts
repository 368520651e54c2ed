/**
 * A switch reloads the page (spec §2), which would swallow its toast: the group's name is kept
 * for the reloaded page to announce 'Grupp ändrad', once.
 */
const SWITCHED_KEY = 'saljportalen.group-switched';

export function rememberSwitch(groupName: string): void {
  try {
    sessionStorage.setItem(SWITCHED_KEY, groupName);
  } catch {
    // Storage refused (private mode): the page still reloads, only without the toast.
  }
}

export function takeSwitchNotice(): string | null {
  try {
    const groupName = sessionStorage.getItem(SWITCHED_KEY);
    if (groupName !== null) sessionStorage.removeItem(SWITCHED_KEY);
    return groupName;
  } catch {
    return null;
  }
}
