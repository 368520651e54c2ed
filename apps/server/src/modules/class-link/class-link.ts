import { and, eq } from 'drizzle-orm';
import type { TClassLinkResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups } from '../../db/schema.js';
import { forbidden } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';
import { storedGoal, type StoredGoal } from '../figures/group-goal.js';
import { actsForGroup } from '../group-members/group-admin-condition.js';

/** A class link's address: the buyer page of the whole class (issue 32). */
export const classLinkUrl = (publicUrl: string, classLinkCode: string) => `${publicUrl}/k/${encodeURIComponent(classLinkCode)}`;

const NOT_THE_GROUPS_ADMIN = 'Endast gruppens administratörer kan hantera klassens länk';

/** The group's class link, text for buyers and goal, for its admin or a superadmin; 403 for anyone else. */
export async function loadClassLink(
  db: Db,
  options: { actorUserId: number; groupId: number; publicUrl: string },
): Promise<TClassLinkResponse & { groupName: string; goal: StoredGoal | null }> {
  const [group] = await db
    .select({
      name: groups.name,
      code: groups.classLinkCode,
      greeting: groups.buyerGreeting,
      goalOre: groups.goalOre,
      goalPurpose: groups.goalPurpose,
      goalEndsOn: groups.goalEndsOn,
    })
    .from(groups)
    .where(and(eq(groups.id, options.groupId), actsForGroup(db, options.actorUserId, options.groupId)));
  if (!group) throw forbidden(NOT_THE_GROUPS_ADMIN);
  return {
    class_link: classLinkUrl(options.publicUrl, group.code),
    buyer_greeting: group.greeting,
    groupName: group.name,
    goal: storedGoal(group),
  };
}

/** The teacher's text on the class's buyer pages; an empty text takes it away. Audited, as every change to what strangers read. */
export async function setBuyerGreeting(db: Db, options: { actorUserId: number; groupId: number; text: string }): Promise<string | null> {
  const greeting = options.text || null;
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(groups)
      .set({ buyerGreeting: greeting })
      .where(and(eq(groups.id, options.groupId), actsForGroup(tx, options.actorUserId, options.groupId)))
      .returning({ id: groups.id });
    if (!updated) throw forbidden(NOT_THE_GROUPS_ADMIN);
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'group.buyer_greeting',
      targetType: 'group',
      targetId: options.groupId,
      details: { characters: greeting?.length ?? 0 },
    });
    return greeting;
  });
}
