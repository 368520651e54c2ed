import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { memberships } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { oreToSek, sekToOre } from '../../lib/money.js';

/**
 * A pupil's own goal in their active group (issue 20), opt-in; `amount: null` removes it. Only the
 * caller's own membership is written (the where holds the user), and no answer but their own
 * summary shows it: it is private to the pupil and their guardians, so it leaves no audit entry
 * that others read either.
 */
export async function setPersonalGoal(
  db: Db,
  options: { userId: number; membershipId: number | null; amount: number | null },
): Promise<{ amount: number | null }> {
  if (options.membershipId === null) throw new AppError('CONFLICT', 'Du är inte med i någon aktiv grupp');
  const [updated] = await db
    .update(memberships)
    .set({ personalGoalOre: options.amount === null ? null : sekToOre(options.amount) })
    .where(and(eq(memberships.id, options.membershipId), eq(memberships.userId, options.userId)))
    .returning({ goalOre: memberships.personalGoalOre });
  if (!updated) throw new AppError('CONFLICT', 'Du är inte med i någon aktiv grupp');
  return { amount: updated.goalOre === null ? null : oreToSek(updated.goalOre) };
}
