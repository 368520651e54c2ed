import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TCloneGroupResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups, memberships, orderLines, users } from '../../db/schema.js';
import { AppError, fieldError, forbidden } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';
import { insertGroupWithUniqueCode } from '../groups/group-code.js';
import { actsForGroup } from '../group-members/group-admin-condition.js';
import { createMembership } from '../memberships/create-membership.js';

/**
 * Next term (issue 31 point 6): a new group under a new code with the old group's admins and the
 * pupils the teacher ticked, each with a new personal link; nothing else carries over (figures,
 * goal, campaign, closing note). Those whose active group was the old one now have the new one.
 * The old group is archived at once when no line of it is waiting for a payout, otherwise when
 * its payout is marked paid (`archive_when_settled`, read by mark-payout-paid). One transaction.
 */
export async function cloneGroup(
  db: Db,
  options: { actorUserId: number; groupId: number; name: string; membershipIds: number[] },
): Promise<TCloneGroupResponse> {
  return db.transaction(async (tx) => {
    const [old] = await tx
      .select({ id: groups.id, archived: groups.archived })
      .from(groups)
      .where(and(eq(groups.id, options.groupId), actsForGroup(tx, options.actorUserId, options.groupId)))
      .for('update');
    if (!old) throw forbidden('Endast gruppens administratörer kan starta nästa termin');
    if (old.archived) throw new AppError('CONFLICT', 'Gruppen är redan arkiverad');

    const wanted = [...new Set(options.membershipIds)];
    const pupils = wanted.length
      ? await tx
          .select({ id: memberships.id, userId: memberships.userId })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(
            and(inArray(memberships.id, wanted), eq(memberships.groupId, old.id), eq(memberships.role, 'seller'), isNull(users.erasedAt)),
          )
      : [];
    if (pupils.length !== wanted.length) throw fieldError('VALIDATION', 'membership_ids', 'Välj bara elever som är med i klassen');
    const admins = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.groupId, old.id), eq(memberships.role, 'admin'), isNull(users.erasedAt)));

    const group = await insertGroupWithUniqueCode(tx, { name: options.name });
    await tx.update(groups).set({ clonedFromGroupId: old.id }).where(eq(groups.id, group.id));
    for (const admin of admins) await createMembership(tx, { userId: admin.userId, groupId: group.id, role: 'admin' });
    for (const pupil of pupils) await createMembership(tx, { userId: pupil.userId, groupId: group.id, role: 'seller' });
    const moved = [...admins, ...pupils].map((member) => member.userId);
    if (moved.length) {
      await tx
        .update(users)
        .set({ activeGroupId: group.id })
        .where(and(inArray(users.id, moved), eq(users.activeGroupId, old.id)));
    }

    const [waiting] = await tx
      .select({ lines: sql<number>`count(*)::int` })
      .from(orderLines)
      .where(and(eq(orderLines.groupId, old.id), isNull(orderLines.payoutId)));
    const settled = (waiting?.lines ?? 0) === 0;
    await tx
      .update(groups)
      .set(settled ? { archived: true } : { archiveWhenSettled: true })
      .where(eq(groups.id, old.id));
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'group.clone',
      targetType: 'group',
      targetId: old.id,
      details: { new_group_id: group.id, code: group.code, pupils: pupils.length, admins: admins.length, archived_now: settled },
    });
    return {
      ok: true as const,
      group: { id: group.id, name: group.name, code: group.code },
      pupils: pupils.length,
      old_group: settled ? ('archived' as const) : ('archived_when_settled' as const),
    };
  });
}
