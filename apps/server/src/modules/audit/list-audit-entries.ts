import { asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { TAuditEntry, TAuditResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { auditEntries, groups, orders, payouts, users } from '../../db/schema.js';

/** Who did it, when that person's account has since been erased. */
const ERASED_ACTOR_NAME = 'Borttagen användare';

type Details = Record<string, unknown> | null;

const idIn = (value: unknown): number | undefined => {
  const id = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
};

/** The person an entry is about, by how writeAudit's callers record one (add-user, create-group's admin). */
const userIdOf = (entry: { targetType: string; targetId: string | null; details: Details }) =>
  entry.targetType === 'user' ? idIn(entry.targetId) : idIn(entry.details?.userId ?? entry.details?.user_id ?? entry.details?.adminUserId);

/**
 * The audit log newest first, one page at a time, optionally of one action (`GET /api/admin/audit`):
 * who did it, what, to which group or person, when. The group of a payout or an order is its group;
 * a group or a person since deleted is shown as nobody rather than hiding the entry.
 */
export async function listAuditEntries(
  db: Db,
  options: { action: string | undefined; page: number; pageSize: number },
): Promise<TAuditResponse> {
  const where = options.action ? eq(auditEntries.action, options.action) : undefined;
  const [rows, [total], actions] = await Promise.all([
    db
      .select({
        id: auditEntries.id,
        action: auditEntries.action,
        createdAt: auditEntries.createdAt,
        targetType: auditEntries.targetType,
        targetId: auditEntries.targetId,
        details: auditEntries.details,
        actorId: users.id,
        actorName: users.fullName,
        actorEmail: users.email,
        actorErased: users.erasedAt,
      })
      .from(auditEntries)
      .leftJoin(users, eq(users.id, auditEntries.actorUserId))
      .where(where)
      .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize),
    db.select({ total: count() }).from(auditEntries).where(where),
    db.selectDistinct({ action: auditEntries.action }).from(auditEntries).orderBy(asc(auditEntries.action)),
  ]);
  const entries = rows.map((row) => ({ ...row, details: (row.details ?? null) as Details }));

  const idsOf = (type: string) =>
    entries.flatMap((entry) => (entry.targetType === type ? [idIn(entry.targetId)] : [])).filter((id) => id !== undefined);
  const [payoutGroups, orderGroups] = await Promise.all([groupsBy(db, payouts, idsOf('payout')), groupsBy(db, orders, idsOf('order'))]);
  const groupIdOf = (entry: (typeof entries)[number]): number | undefined => {
    switch (entry.targetType) {
      case 'group':
        return idIn(entry.targetId);
      case 'payout':
        return payoutGroups.get(idIn(entry.targetId) ?? 0);
      case 'order':
        // Where the order went; an order since moved again is still named by where this entry put it.
        return idIn(entry.details?.to_group_id) ?? orderGroups.get(idIn(entry.targetId) ?? 0);
      default:
        return idIn(entry.details?.group_id);
    }
  };

  const groupIds = [...new Set(entries.map(groupIdOf).filter((id) => id !== undefined))];
  const userIds = [...new Set(entries.map(userIdOf).filter((id) => id !== undefined))];
  const [groupRows, userRows] = await Promise.all([
    groupIds.length ? db.select({ id: groups.id, name: groups.name }).from(groups).where(inArray(groups.id, groupIds)) : [],
    userIds.length ? db.select({ id: users.id, fullName: users.fullName }).from(users).where(inArray(users.id, userIds)) : [],
  ]);
  const groupNames = new Map(groupRows.map((group) => [group.id, group.name]));
  const userNames = new Map(userRows.map((user) => [user.id, user.fullName]));

  return {
    items: entries.map((entry): TAuditEntry => {
      const groupId = groupIdOf(entry);
      const userId = userIdOf(entry);
      const groupName = groupId === undefined ? undefined : groupNames.get(groupId);
      const userName = userId === undefined ? undefined : userNames.get(userId);
      return {
        id: entry.id,
        action: entry.action,
        created_at: entry.createdAt.toISOString(),
        actor:
          entry.actorId === null
            ? null
            : // An erased person's tombstone address is no address to show (issue 33 point 8).
              entry.actorErased !== null
              ? { id: entry.actorId, full_name: ERASED_ACTOR_NAME, email: '' }
              : { id: entry.actorId, full_name: entry.actorName ?? '', email: entry.actorEmail ?? '' },
        target_type: entry.targetType,
        target_id: entry.targetId,
        group: groupId !== undefined && groupName !== undefined ? { id: groupId, name: groupName } : null,
        user: userId !== undefined && userName !== undefined ? { id: userId, full_name: userName } : null,
      };
    }),
    total: total?.total ?? 0,
    page: options.page,
    page_size: options.pageSize,
    actions: actions.map((row) => row.action),
  };
}

/** The group of each of some payouts or orders, by id. */
async function groupsBy(db: Db, table: typeof payouts | typeof orders, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: table.id, groupId: table.groupId }).from(table).where(inArray(table.id, ids));
  return new Map(rows.flatMap((row) => (row.groupId === null ? [] : [[row.id, row.groupId] as const])));
}
