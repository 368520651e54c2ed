import type { TAdminGroupOptionsResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups } from '../../db/schema.js';
import { bySwedishName } from './swedish-order.js';

/**
 * Every group for a picker, archived ones too (a refund after an archived group's last payout
 * still has to be settled): three columns of a few thousand rows, no figures, no paging.
 */
export async function listGroupOptions(db: Db): Promise<TAdminGroupOptionsResponse> {
  const rows = await db.select({ id: groups.id, name: groups.name, archived: groups.archived }).from(groups);
  return { items: bySwedishName(rows) };
}
