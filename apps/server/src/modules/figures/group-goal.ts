import { daysBetween, type TGroupGoal } from '@saljportalen/contract';
import { stockholmDate } from '../../lib/dates.js';
import { oreToSek } from '../../lib/money.js';

/** A group's goal as stored (issue 20): all three columns set, or the group has none. */
export interface StoredGoal {
  amountOre: number;
  purpose: string;
  endsOn: string;
}

/** The goal of a group row's three goal columns; null unless all three are set. */
export function storedGoal(columns: { goalOre: number | null; goalPurpose: string | null; goalEndsOn: string | null }): StoredGoal | null {
  const { goalOre, goalPurpose, goalEndsOn } = columns;
  return goalOre === null || goalPurpose === null || goalEndsOn === null
    ? null
    : { amountOre: goalOre, purpose: goalPurpose, endsOn: goalEndsOn };
}

/** A goal as the API shows it: kronor, and the Stockholm days left until its last day (0 on it and after). */
export function toGroupGoal(goal: StoredGoal | null, now: Date = new Date()): TGroupGoal | null {
  if (!goal) return null;
  return {
    amount: oreToSek(goal.amountOre),
    purpose: goal.purpose,
    ends_on: goal.endsOn,
    days_left: Math.max(0, daysBetween(stockholmDate(now), goal.endsOn)),
  };
}
