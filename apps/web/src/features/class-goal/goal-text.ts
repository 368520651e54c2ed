import type { TGroupGoal } from '@saljportalen/contract';

/** Whole per cent of the goal reached, rounded down (99.6 % is not yet 100 %), never below 0. */
export function percentOf(amount: number, goal: number): number {
  if (goal <= 0) return 0;
  return Math.max(0, Math.floor((amount / goal) * 100));
}

/** "30 dagar kvar", "1 dag kvar", "Sista dagen idag", or "Insamlingen har avslutats" after the last day. */
export function daysLeftText(goal: Pick<TGroupGoal, 'days_left' | 'ends_on'>, today: string): string {
  if (goal.ends_on < today) return 'Insamlingen har avslutats';
  if (goal.days_left === 0) return 'Sista dagen idag';
  return goal.days_left === 1 ? '1 dag kvar' : `${goal.days_left} dagar kvar`;
}

/** A pupil's equal share of the class goal, in whole kronor rounded up, or null without pupils. */
export function equalShare(goal: number, members: number): number | null {
  return members > 0 ? Math.ceil(goal / members) : null;
}
