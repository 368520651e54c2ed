import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { ChevronDown, Users } from 'lucide-react';
import type { TAccountGroup } from '@saljportalen/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { notify, notifyFailure } from '@/lib/toast';
import { useAccountGroups } from '../api/account-groups';
import { useSwitchGroup } from '../api/switch-group';
import { rememberSwitch, takeSwitchNotice } from '../switch-notice';

const roleLabel = (role: TAccountGroup['role']) => (role === 'admin' ? 'Admin' : 'Säljare');

/**
 * spec §2 header group switcher: the user's groups with their role, the active one marked
 * 'Aktiv'; choosing another switches and reloads the page. A disclosure (button + list of
 * buttons) rather than a menu widget: Tab, arrow keys and Escape all work, in the header and
 * in the phone menu alike.
 */
export function GroupSwitcher() {
  const groups = useAccountGroups();
  const switchGroup = useSwitchGroup();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!groups.isSuccess) return;
    const switchedTo = takeSwitchNotice();
    if (switchedTo !== null) notify.success('Grupp ändrad', `Aktiv grupp: ${switchedTo}`);
  }, [groups.isSuccess]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const list = groups.data?.groups ?? [];
  if (list.length === 0) return null;
  const active = list.find((group) => group.is_active);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) triggerRef.current?.focus();
  };

  const choose = async (group: TAccountGroup) => {
    if (group.is_active) return close(true);
    try {
      await switchGroup.mutateAsync({ group_id: group.group_id });
      rememberSwitch(group.group_name);
      window.location.reload();
    } catch (error) {
      notifyFailure('Fel vid byte av grupp', error, 'Kunde inte byta grupp');
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!open) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'Home' && event.key !== 'End') return;
    const items = Array.from(rootRef.current?.querySelectorAll<HTMLButtonElement>('[data-group-option]') ?? []);
    if (items.length === 0) return;
    event.preventDefault();
    const current = items.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? items.length - 1
          : event.key === 'ArrowDown'
            ? (current + 1) % items.length
            : (current - 1 + items.length) % items.length;
    items[next]?.focus();
  };

  return (
    <div
      ref={rootRef}
      className="relative"
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        // Tabbing away closes the list; a click elsewhere is handled by the pointer listener.
        if (event.relatedTarget && !rootRef.current?.contains(event.relatedTarget as Node)) setOpen(false);
      }}
    >
      <Button
        ref={triggerRef}
        variant="outline"
        className="w-full justify-between md:w-auto md:max-w-64"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        <Users aria-hidden="true" />
        <span className="sr-only">Byt grupp, aktiv grupp: </span>
        <span className="min-w-0 flex-1 truncate text-left">{active?.group_name ?? 'Välj grupp'}</span>
        <ChevronDown aria-hidden="true" className={cn('motion-safe:transition-transform', open && 'rotate-180')} />
      </Button>
      <div
        id={listId}
        hidden={!open}
        // In the phone menu the list opens in place and pushes the menu down; in the header it floats.
        className="mt-2 rounded-xl border border-line bg-white p-2 md:absolute md:right-0 md:z-30 md:w-96 md:shadow-lg"
      >
        <p className="px-2 pb-2 pt-1 text-sm font-semibold text-muted">Dina grupper</p>
        <ul className="space-y-1">
          {list.map((group) => (
            <li key={group.group_id}>
              <button
                type="button"
                data-group-option
                aria-current={group.is_active ? 'true' : undefined}
                disabled={switchGroup.isPending}
                onClick={() => void choose(group)}
                className={cn(
                  'flex w-full items-center gap-2 rounded-lg px-2 py-2 text-left hover:bg-slate-100 disabled:opacity-60',
                  group.is_active && 'bg-brand-soft/60',
                )}
              >
                <span className="min-w-0 flex-1">
                  <span className="block font-semibold break-words text-ink">{group.group_name}</span>
                  <span className="block text-sm text-muted">Kod {group.group_code}</span>
                </span>
                <span className="flex shrink-0 flex-wrap justify-end gap-1">
                  <Badge variant={group.role === 'admin' ? 'brand' : 'default'}>{roleLabel(group.role)}</Badge>
                  {group.is_active && <Badge variant="success">Aktiv</Badge>}
                  {group.archived && <Badge variant="warning">Arkiverad</Badge>}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {switchGroup.isPending && (
          <p role="status" className="px-2 pt-2 text-sm text-muted">
            Byter grupp...
          </p>
        )}
      </div>
    </div>
  );
}
