import { useRef } from 'react';
import type { TCampaign, TGroupGoal, TLeaderboardMode } from '@saljportalen/contract';
import { CampaignForm } from '@/features/campaign';
import { GoalForm } from '@/features/class-goal';
import { LeaderboardModeSetting } from '@/features/leaderboard';
import { useFocusKept } from '@/lib/use-focus-kept';

/**
 * The group admin's choices for the class: its campaign's days (issue 31), its goal and what its
 * leaderboard shows (issue 20).
 * Loaded when 'Klassens mål och topplista' is first opened (decision 045).
 */
export function GroupSettingsForms({
  groupId,
  goal,
  mode,
  campaign,
}: {
  groupId: number;
  goal: TGroupGoal | null;
  mode: TLeaderboardMode;
  campaign: TCampaign | null;
}) {
  // A saved goal remounts its form with what was saved: focus goes to the new form's button.
  const goalSection = useRef<HTMLElement>(null);
  useFocusKept(goalSection, 'button[type=submit]');
  return (
    <div className="space-y-6 border-t border-line p-4">
      {/* Issue 31: the campaign's days; a closed-out campaign's are kept, and next term is a new group. */}
      {campaign?.state !== 'ended' && (
        <section aria-labelledby="campaign-settings-title" className="space-y-3">
          <h3 id="campaign-settings-title" className="text-sm font-semibold text-ink">
            Försäljningsperiod
          </h3>
          <CampaignForm key={JSON.stringify(campaign)} groupId={groupId} campaign={campaign} />
        </section>
      )}
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
