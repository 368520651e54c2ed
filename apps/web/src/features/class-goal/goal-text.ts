import type { TGroupGoal } from '@saljportalen/contract';
import { formatKronor } from '@/lib/format';

/** Whole per cent of the goal reached, rounded down (99.6 % is not yet 100 %), never below 0. */
export function percentOf(amount: number, goal: number): number {
  if (goal <= 0) return 0;
  return Math.max(0, Math.floor((amount / goal) * 100));
}

/**
 * A goal's progress in words: "8 734 kr intjänat av 60 000 kr (14 %)". A goal, the class's or a
 * pupil's own, is measured in commission, what is earned (decisions 038, 042): never in sales.
 */
export function earnedText(earned: number, goal: number): string {
  return `${formatKronor(earned)} intjänat av ${formatKronor(goal)} (${percentOf(earned, goal)} %)`;
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
