import { useId, useState } from 'react';
import type { TLeaderboardMode } from '@saljportalen/contract';
import { cn } from '@/lib/cn';
import { notify, notifyFailure } from '@/lib/toast';
import { useSetLeaderboardVisibility } from '../api/leaderboard-visibility';

export const MODE_CHOICES: { mode: TLeaderboardMode; label: string; description: string }[] = [
  { mode: 'full', label: 'Hela topplistan', description: 'Namn, försäljning och placering för alla.' },
  { mode: 'participation', label: 'Bara vilka som har sålt', description: 'Namnen i bokstavsordning, utan belopp och placeringar.' },
  { mode: 'own_only', label: 'Bara egna siffror', description: 'Var och en ser sin egen försäljning och klassens total.' },
];

/**
 * The group admin chooses what the class's leaderboard shows (issue 20): a labelled radio group,
 * saved on change. The server withholds what a mode hides; this only chooses.
 */
export function LeaderboardModeSetting({ groupId, mode }: { groupId: number; mode: TLeaderboardMode }) {
  const legendId = useId();
  const save = useSetLeaderboardVisibility();
  // The choice shows at once; it goes back to the saved mode if the server refuses it.
  const [chosen, setChosen] = useState<TLeaderboardMode>();
  const shown = chosen ?? mode;
  const choose = async (next: TLeaderboardMode) => {
    if (next === shown || save.isPending) return;
    setChosen(next);
    try {
      await save.mutateAsync({ group_id: groupId, leaderboard_mode: next });
      notify.success('Inställning uppdaterad');
    } catch (error) {
      notifyFailure('Kunde inte uppdatera inställningen', error);
    } finally {
      setChosen(undefined);
    }
  };
  return (
    <fieldset className="space-y-2" aria-describedby={`${legendId}-hint`}>
      <legend id={legendId} className="text-sm font-semibold text-ink">
        Vad topplistan visar för klassen
      </legend>
      <p id={`${legendId}-hint`} className="text-sm text-muted">
        Gäller alla i gruppen, även dig som administratör.
      </p>
      {MODE_CHOICES.map((choice) => (
        <label
          key={choice.mode}
          className={cn(
            'flex cursor-pointer gap-3 rounded-lg border p-3 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand',
            choice.mode === shown ? 'border-brand bg-brand-soft' : 'border-line',
          )}
        >
          <input
            type="radio"
            name={`leaderboard-mode-${groupId}`}
            value={choice.mode}
            checked={choice.mode === shown}
            onChange={() => void choose(choice.mode)}
            className="mt-1 size-4 accent-brand"
          />
          <span>
            <span className="block font-medium text-ink">{choice.label}</span>
            <span className="block text-sm text-muted">{choice.description}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
