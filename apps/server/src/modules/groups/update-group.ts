import type { TGroupChangeResponse, TUpdateGroupRequest } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { applyArchived } from './archive-group.js';
import { applyName } from './rename-group.js';
import { lockGroup, toGroupRecord } from './group-queries.js';

/**
 * Every change of a group's name or state (spec §7's rename, archive and PATCH routes alike):
 * either or both in one transaction, each by its own rules.
 */
export function updateGroup(
  db: Db,
  options: { actorUserId: number; groupId: number; changes: TUpdateGroupRequest },
): Promise<TGroupChangeResponse> {
  const { actorUserId, groupId, changes } = options;
  return db.transaction(async (tx) => {
    let changed = false;
    if (changes.name !== undefined) changed = (await applyName(tx, { actorUserId, groupId, name: changes.name })).changed || changed;
    if (changes.archived !== undefined)
      changed = (await applyArchived(tx, { actorUserId, groupId, archived: changes.archived })).changed || changed;
    return { group: toGroupRecord(await lockGroup(tx, groupId)), changed };
  });
}
