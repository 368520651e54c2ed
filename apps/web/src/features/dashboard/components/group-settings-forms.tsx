import { useRef } from 'react';
import type { TGroupGoal, TLeaderboardMode } from '@saljportalen/contract';
import { GoalForm } from '@/features/class-goal';
import { LeaderboardModeSetting } from '@/features/leaderboard';
import { useFocusKept } from '@/lib/use-focus-kept';

/**
 * The group admin's choices for the class (issue 20): its goal and what its leaderboard shows.
 * Loaded when 'Klassens mål och topplista' is first opened (decision 045).
 */
export function GroupSettingsForms({ groupId, goal, mode }: { groupId: number; goal: TGroupGoal | null; mode: TLeaderboardMode }) {
  // A saved goal remounts its form with what was saved: focus goes to the new form's button.
  const goalSection = useRef<HTMLElement>(null);
  useFocusKept(goalSection, 'button[type=submit]');
  return (
    <div className="space-y-6 border-t border-line p-4">
      <section ref={goalSection} aria-labelledby="goal-settings-title" className="space-y-3">
        <h3 id="goal-settings-title" className="text-sm font-semibold text-ink">
          {goal ? 'Ändra klassens mål' : 'Sätt ett mål för klassen'}
        </h3>
        <GoalForm key={JSON.stringify(goal)} groupId={groupId} goal={goal} />
      </section>
      <LeaderboardModeSetting groupId={groupId} mode={mode} />
    </div>
  );
}
