import { cn } from '@/lib/cn';

interface SwitchProps {
  checked: boolean;
  onToggle: () => void;
  /** While saving: aria-disabled rather than disabled, so the keyboard's focus stays on it (issue 19). */
  busy?: boolean;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  'aria-describedby'?: string;
}

/** An on/off switch (role="switch"), the leaderboard setting's look: brand green when on. */
export function Switch({ checked, onToggle, busy = false, ...aria }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-disabled={busy}
      onClick={() => {
        if (!busy) onToggle();
      }}
      className={cn(
        'relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors aria-disabled:opacity-60',
        checked ? 'bg-brand' : 'bg-slate-500',
      )}
      {...aria}
    >
      <span
        aria-hidden="true"
        className={cn('inline-block size-5 rounded-full bg-white shadow transition-transform', checked ? 'translate-x-6' : 'translate-x-1')}
      />
    </button>
  );
}
