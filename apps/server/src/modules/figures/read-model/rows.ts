import { inArray, isNotNull, and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.js';
import { groupFigures, groups, guardianLinks, membershipFigures, memberships, users } from '../../../db/schema.js';
import { authUserColumns } from '../../../db/auth-user-columns.js';
import { rollupFigures } from '../order-sums.js';

/**
 * What the read model reads from the database: everything at start and after a resync (one
 * snapshot), and single rows when the change feed names them. Attributes only in the single-row
 * reads: figures reach the model through the feed alone, in commit order (decision 047).
 */
type Reader = Db | Tx;

const userColumns = {
  ...authUserColumns,
  guardianConsent: users.guardianConsent,
  publicName: users.publicName,
  alias: users.alias,
  erasedAt: users.erasedAt,
};

const membershipColumns = {
  id: memberships.id,
  userId: memberships.userId,
  groupId: memberships.groupId,
  role: memberships.role,
  linkCode: memberships.linkCode,
  protectedIdentity: memberships.protectedIdentity,
  personalGoalOre: memberships.personalGoalOre,
};

const groupColumns = {
  id: groups.id,
  name: groups.name,
  code: groups.code,
  archived: groups.archived,
  leaderboardVisible: groups.leaderboardVisible,
  leaderboardMode: groups.leaderboardMode,
  goalOre: groups.goalOre,
  goalPurpose: groups.goalPurpose,
  goalEndsOn: groups.goalEndsOn,
  campaignStartsOn: groups.campaignStartsOn,
  campaignEndsOn: groups.campaignEndsOn,
  closingNote: groups.closingNote,
  closingNoteAt: groups.closingNoteAt,
};

export type UserRow = Awaited<ReturnType<typeof selectUsers>>[number] & { isGuardian: boolean };
export type MembershipRow = Awaited<ReturnType<typeof selectMemberships>>[number];
export type GroupRow = Awaited<ReturnType<typeof selectGroups>>[number];
export type MembershipWithFigures = Awaited<ReturnType<typeof selectMembershipsWithFigures>>[number];
export type GroupWithFigures = Awaited<ReturnType<typeof selectGroupsWithFigures>>[number];

const selectUsers = (db: Reader, ids?: number[]) => {
  const query = db.select(userColumns).from(users);
  return ids ? query.where(inArray(users.id, ids)) : query;
};

/** The users among `ids` (all, without) who are guardians of at least one approved child. */
async function selectGuardians(db: Reader, ids?: number[]): Promise<Set<number>> {
  const rows = await db
    .selectDistinct({ userId: guardianLinks.guardianUserId })
    .from(guardianLinks)
    .where(
      and(isNotNull(guardianLinks.approvedAt), ids ? inArray(guardianLinks.guardianUserId, ids) : isNotNull(guardianLinks.guardianUserId)),
    );
  return new Set(rows.map((row) => row.userId!));
}

const selectMemberships = (db: Reader, ids: number[]) => db.select(membershipColumns).from(memberships).where(inArray(memberships.id, ids));

const selectGroups = (db: Reader, ids: number[]) => db.select(groupColumns).from(groups).where(inArray(groups.id, ids));

const selectMembershipsWithFigures = (db: Reader) =>
  db
    .select({ ...membershipColumns, ...rollupFigures(membershipFigures) })
    .from(memberships)
    .leftJoin(membershipFigures, eq(membershipFigures.membershipId, memberships.id));

const selectGroupsWithFigures = (db: Reader) =>
  db
    .select({ ...groupColumns, ...rollupFigures(groupFigures), version: groupFigures.version })
    .from(groups)
    .leftJoin(groupFigures, eq(groupFigures.groupId, groups.id));

export interface Snapshot {
  users: UserRow[];
  memberships: MembershipWithFigures[];
  groups: GroupWithFigures[];
}

/** Everything the model holds, read in one repeatable-read transaction: one moment of the database. */
export async function readSnapshot(db: Db): Promise<Snapshot> {
  return db.transaction(
    async (tx) => {
      // One after the other: a transaction is one connection, which takes one statement at a time.
      const userRows = await selectUsers(tx);
      const guardians = await selectGuardians(tx);
      const membershipRows = await selectMembershipsWithFigures(tx);
      const groupRows = await selectGroupsWithFigures(tx);
      return {
        users: userRows.map((row) => ({ ...row, isGuardian: guardians.has(row.id) })),
        memberships: membershipRows,
        groups: groupRows,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The rows the feed named, as they are now; an id with no row was deleted. */
export interface NamedRows {
  users: Map<number, UserRow | null>;
  memberships: Map<number, MembershipRow | null>;
  groups: Map<number, GroupRow | null>;
}

export async function readNamedRows(db: Db, ids: { users: number[]; memberships: number[]; groups: number[] }): Promise<NamedRows> {
  const [userRows, guardians, membershipRows, groupRows] = await Promise.all([
    ids.users.length ? selectUsers(db, ids.users) : [],
    ids.users.length ? selectGuardians(db, ids.users) : new Set<number>(),
    ids.memberships.length ? selectMemberships(db, ids.memberships) : [],
    ids.groups.length ? selectGroups(db, ids.groups) : [],
  ]);
  const byId = <Row extends { id: number }>(wanted: number[], rows: Row[]) => {
    const found = new Map<number, Row | null>(wanted.map((id) => [id, null]));
    for (const row of rows) found.set(row.id, row);
    return found;
  };
  return {
    users: byId(
      ids.users,
      userRows.map((row) => ({ ...row, isGuardian: guardians.has(row.id) })),
    ),
    memberships: byId(ids.memberships, membershipRows),
    groups: byId(ids.groups, groupRows),
  };
}
