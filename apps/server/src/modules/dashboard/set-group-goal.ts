import { and, eq } from 'drizzle-orm';
import type { TGroupGoal } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups } from '../../db/schema.js';
import { forbidden } from '../../errors.js';
import { sekToOre } from '../../lib/money.js';
import { writeAudit } from '../audit/write-audit.js';
import { storedGoal, toGroupGoal } from '../figures/group-goal.js';
import { actsForGroup } from '../group-members/group-admin-condition.js';

/**
 * Sets, changes or (with `goal: null`) removes a group's class goal (issue 20). Allowed for an
 * admin membership of that very group and for a superadmin (who sets it from the admin group
 * detail); decided inside the update's where, as the leaderboard setting is, with the audit entry
 * in the same transaction. The contract has checked the amount, purpose and end date.
 */
export async function setGroupGoal(
  db: Db,
  options: { actorUserId: number; groupId: number; goal: { amount: number; purpose: string; endsOn: string } | null },
): Promise<TGroupGoal | null> {
  const { goal } = options;
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(groups)
      .set(
        goal
          ? { goalOre: sekToOre(goal.amount), goalPurpose: goal.purpose, goalEndsOn: goal.endsOn }
          : { goalOre: null, goalPurpose: null, goalEndsOn: null },
      )
      .where(and(eq(groups.id, options.groupId), actsForGroup(tx, options.actorUserId, options.groupId)))
      .returning({ goalOre: groups.goalOre, goalPurpose: groups.goalPurpose, goalEndsOn: groups.goalEndsOn });
    // A group that does not exist is refused the same way, so the answer tells nothing about other groups.
    if (!updated) throw forbidden('Endast gruppens administratörer kan ändra klassens mål');
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'group.goal',
      targetType: 'group',
      targetId: options.groupId,
      details: goal ? { amount: goal.amount, purpose: goal.purpose, ends_on: goal.endsOn } : { removed: true },
    });
    return toGroupGoal(storedGoal(updated));
  });
}
