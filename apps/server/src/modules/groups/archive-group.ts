import { eq } from 'drizzle-orm';
import type { TGroupChangeResponse } from '@saljportalen/contract';
import type { Tx } from '../../db/client.js';
import { groups } from '../../db/schema.js';
import { writeAudit } from '../audit/write-audit.js';
import { lockGroup, toGroupRecord } from './group-queries.js';

/**
 * Spec §4: group active <-> archived, within updateGroup's transaction; asking for the state the
 * group already has changes nothing.
 */
export async function applyArchived(
  tx: Tx,
  options: { actorUserId: number; groupId: number; archived: boolean },
): Promise<TGroupChangeResponse> {
  const group = await lockGroup(tx, options.groupId);
  if (group.archived === options.archived) return { group: toGroupRecord(group), changed: false };
  const [updated] = await tx.update(groups).set({ archived: options.archived }).where(eq(groups.id, group.id)).returning();
  await writeAudit(tx, {
    actorUserId: options.actorUserId,
    action: options.archived ? 'group.archive' : 'group.reactivate',
    targetType: 'group',
    targetId: group.id,
  });
  return { group: toGroupRecord(updated!), changed: true };
}
