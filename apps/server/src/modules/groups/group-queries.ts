import { eq } from 'drizzle-orm';
import type { TAdminGroupRecord } from '@saljportalen/contract';
import type { Db, Tx } from '../../db/client.js';
import { groups } from '../../db/schema.js';
import { notFound } from '../../errors.js';

export const groupNotFound = () => notFound('Grupp hittades inte');

type GroupRow = typeof groups.$inferSelect;

export const toGroupRecord = (group: Pick<GroupRow, 'id' | 'name' | 'code' | 'archived' | 'createdAt'>): TAdminGroupRecord => ({
  id: group.id,
  name: group.name,
  group_code: group.code,
  archived: group.archived,
  created_at: group.createdAt.toISOString(),
});

export async function findGroupRecord(db: Db, groupId: number): Promise<TAdminGroupRecord> {
  const [group] = await db.select().from(groups).where(eq(groups.id, groupId));
  if (!group) throw groupNotFound();
  return toGroupRecord(group);
}

/** The group row, locked until the transaction ends, so two admins' changes apply one after the other. */
export async function lockGroup(tx: Tx, groupId: number): Promise<GroupRow> {
  const [group] = await tx.select().from(groups).where(eq(groups.id, groupId)).for('update');
  if (!group) throw groupNotFound();
  return group;
}
