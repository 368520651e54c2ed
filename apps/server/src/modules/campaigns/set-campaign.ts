import { and, eq, isNull } from 'drizzle-orm';
import type { TCampaign } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups } from '../../db/schema.js';
import { AppError, forbidden } from '../../errors.js';
import { writeAudit } from '../audit/write-audit.js';
import { toCampaign } from '../dashboard/get-group-totals.js';
import { actsForGroup } from '../group-members/group-admin-condition.js';

/**
 * Sets or moves a class's campaign days (issue 31 point 3): the group's admin or a superadmin,
 * decided in the update's where as every group admin's change is. A campaign whose close-out has
 * run is over: its summary has gone to the guardians, so its days stay as they were, and the class
 * goes on as next term's clone. The contract has checked the days themselves.
 */
export async function setCampaign(
  db: Db,
  options: { actorUserId: number; groupId: number; startsOn: string; endsOn: string },
): Promise<TCampaign> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(groups)
      .set({ campaignStartsOn: options.startsOn, campaignEndsOn: options.endsOn })
      .where(
        and(
          eq(groups.id, options.groupId),
          eq(groups.archived, false),
          isNull(groups.campaignClosedAt),
          actsForGroup(tx, options.actorUserId, options.groupId),
        ),
      )
      .returning({ startsOn: groups.campaignStartsOn, endsOn: groups.campaignEndsOn });
    if (!updated) {
      const [group] = await tx
        .select({ archived: groups.archived, closedAt: groups.campaignClosedAt })
        .from(groups)
        .where(and(eq(groups.id, options.groupId), actsForGroup(tx, options.actorUserId, options.groupId)));
      // A group that does not exist is refused as one the caller does not run: nothing is told about other groups.
      if (!group) throw forbidden('Endast gruppens administratörer kan ändra försäljningsperioden');
      throw new AppError(
        'CONFLICT',
        group.archived
          ? 'Gruppen är arkiverad och kan inte få en ny försäljningsperiod'
          : 'Försäljningen är redan avslutad. Starta nästa termin med en ny grupp.',
      );
    }
    await writeAudit(tx, {
      actorUserId: options.actorUserId,
      action: 'group.campaign',
      targetType: 'group',
      targetId: options.groupId,
      details: { starts_on: options.startsOn, ends_on: options.endsOn },
    });
    return toCampaign({ startsOn: updated.startsOn!, endsOn: updated.endsOn! })!;
  });
}
