import { eq, type SQL } from 'drizzle-orm';
import type { TGroupStatusFilter } from '@saljportalen/contract';
import { groups } from './schema.js';

/** The admin lists' status filter as a condition on `groups`: shared by the group list and the seller rows. */
export function groupStatusCondition(status: TGroupStatusFilter): SQL | undefined {
  if (status === 'active') return eq(groups.archived, false);
  if (status === 'archived') return eq(groups.archived, true);
  return undefined;
}
