import { useId } from 'react';
import { Target } from 'lucide-react';
import type { TGroupGoal } from '@saljportalen/contract';
import { stockholmToday } from '@saljportalen/contract/plain';
import { cn } from '@/lib/cn';
import { formatKronor } from '@/lib/format';
import { daysLeftText, earnedText, percentOf } from '../goal-text';

/**
 * Progress towards a class goal (issue 20): what for, kronor earned of kronor, per cent and days
 * left, as a progressbar a screen reader announces with the same words. `earned` is the group's
 * commission (`total_commission`), never its sales: a class goal is money the class raises
 * (decisions 038, 042), the same measure as the weekly summary mail and the sales chart.
 */
export function GoalProgress({ goal, earned, compact = false }: { goal: TGroupGoal; earned: number; compact?: boolean }) {
  const labelId = useId();
  const percent = percentOf(earned, goal.amount);
  const amounts = `${formatKronor(earned)} intjänat av ${formatKronor(goal.amount)}`;
  const daysLeft = daysLeftText(goal, stockholmToday());
  return (
    <div className={cn('space-y-2', compact && 'space-y-1')}>
      {!compact && (
        <p id={labelId} className="flex items-start gap-2 font-semibold text-ink">
          <Target className="mt-0.5 size-5 shrink-0 text-brand" aria-hidden="true" />
          <span className="[overflow-wrap:anywhere]">Vi samlar till: {goal.purpose}</span>
        </p>
      )}
      <div
        role="progressbar"
        aria-labelledby={compact ? undefined : labelId}
        aria-label={compact ? `Mål: ${goal.purpose}` : undefined}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(percent, 100)}
        aria-valuetext={earnedText(earned, goal.amount)}
        className={cn('overflow-hidden rounded-full border border-slate-500 bg-slate-100', compact ? 'h-2.5' : 'h-4')}
      >
        <div className="h-full rounded-full bg-brand" style={{ width: `${Math.min(percent, 100)}%` }} />
      </div>
      <p className={cn('flex flex-wrap justify-between gap-x-3 text-ink', compact ? 'text-xs' : 'text-sm')}>
        <span className="tabular-nums">
          <span className="font-semibold">{amounts}</span> ({percent} %)
        </span>
        <span className="text-muted">{daysLeft}</span>
      </p>
    </div>
  );
}
