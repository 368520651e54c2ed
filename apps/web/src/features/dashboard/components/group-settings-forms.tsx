import type { TGroupGoal, TLeaderboardMode } from '@saljportalen/contract';
import { GoalForm } from '@/features/class-goal';
import { LeaderboardModeSetting } from '@/features/leaderboard';

/**
 * The group admin's choices for the class (issue 20): its goal and what its leaderboard shows.
 * Loaded when 'Klassens mål och topplista' is first opened (decision 045).
 */
export function GroupSettingsForms({ groupId, goal, mode }: { groupId: number; goal: TGroupGoal | null; mode: TLeaderboardMode }) {
  return (
    <div className="space-y-6 border-t border-line p-4">
      <section aria-labelledby="goal-settings-title" className="space-y-3">
        <h3 id="goal-settings-title" className="text-sm font-semibold text-ink">
          {goal ? 'Ändra klassens mål' : 'Sätt ett mål för klassen'}
        </h3>
        <GoalForm key={JSON.stringify(goal)} groupId={groupId} goal={goal} />
      </section>
      <LeaderboardModeSetting groupId={groupId} mode={mode} />
    </div>
  );
}
