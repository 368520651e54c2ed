import { eq } from 'drizzle-orm';
import type { TGroupChangeResponse } from '@saljportalen/contract';
import type { Tx } from '../../db/client.js';
import { groups } from '../../db/schema.js';
import { writeAudit } from '../audit/write-audit.js';
import { lockGroup, toGroupRecord } from './group-queries.js';

/** Spec §5: the name is trimmed; an empty or unchanged name is ignored and the group answered as it is. */
export async function applyName(tx: Tx, options: { actorUserId: number; groupId: number; name: string }): Promise<TGroupChangeResponse> {
  const group = await lockGroup(tx, options.groupId);
  const name = options.name.trim();
  if (name === '' || name === group.name) return { group: toGroupRecord(group), changed: false };
  const [updated] = await tx.update(groups).set({ name }).where(eq(groups.id, group.id)).returning();
  await writeAudit(tx, {
    actorUserId: options.actorUserId,
    action: 'group.rename',
    targetType: 'group',
    targetId: group.id,
    details: { from: group.name, to: name },
  });
  return { group: toGroupRecord(updated!), changed: true };
}
