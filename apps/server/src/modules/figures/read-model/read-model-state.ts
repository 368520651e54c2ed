import type { FeedFigures } from '../../../db/change-feed.js';
import type { GroupRow, MembershipRow, NamedRows, Snapshot, UserRow } from './rows.js';

/**
 * The data of the read model: every user, membership and group with what a seller call shows,
 * indexed the ways those calls look things up. It changes only through the methods below, each
 * of which is synchronous: a request never sees a change half applied.
 */
type UserEntry = { row: UserRow; membershipIds: Set<number> };
type MembershipEntry = MembershipRow & { figures: FeedFigures };
/** The group as a seller view shows it: replaced, never changed, so a request holds one consistent version. */
type GroupView = GroupRow & {
  figures: FeedFigures;
  /** group_figures.version: the live streams' version of the group's figures, shown to the web. */
  version: number | null;
};
type GroupEntry = {
  view: GroupView;
  membershipIds: Set<number>;
  /** Answers made from the group's rows, dropped whenever anything of the group changes. */
  derived: Map<string, unknown>;
};

/** One member as a group's leaderboard is made from. */
export interface MemberRow {
  userId: number;
  sellerName: string;
  role: MembershipRow['role'];
  protectedIdentity: boolean;
  guardianConsent: UserRow['guardianConsent'];
  erasedAt: Date | null;
  salesOre: number;
  commissionOre: number;
  ordersCount: number;
}

/** The signed-in user with their active group's membership, the group and both their figures (figures/seller-view.ts). */
export interface SellerViewRow {
  id: number;
  email: string | null;
  fullName: string;
  isSuperadmin: boolean;
  activeGroupId: number | null;
  tokenVersion: number;
  endedSessions: UserRow['endedSessions'];
  guardianConsent: UserRow['guardianConsent'];
  isGuardian: boolean;
  publicName: UserRow['publicName'];
  alias: string | null;
  membership: {
    id: number;
    role: MembershipRow['role'];
    linkCode: string;
    protectedIdentity: boolean;
    personalGoalOre: number | null;
    figures: FeedFigures;
  } | null;
  group: GroupView | null;
}

const NO_FIGURES: FeedFigures = { salesOre: 0, commissionOre: 0, ordersCount: 0 };

// The model's objects are made by these, field by field, and never by spreading a database row:
// every seller call reads them, and V8 reads objects of one literal's shape several times faster
// than the ones object rest and spread make (measured: the seller view took 1.7 µs instead of 0.4).
// A column added to rows.ts is a type error here until it is added.
const userRow = (row: UserRow): UserRow => ({
  id: row.id,
  email: row.email,
  fullName: row.fullName,
  isSuperadmin: row.isSuperadmin,
  activeGroupId: row.activeGroupId,
  tokenVersion: row.tokenVersion,
  endedSessions: row.endedSessions,
  guardianConsent: row.guardianConsent,
  publicName: row.publicName,
  alias: row.alias,
  erasedAt: row.erasedAt,
  isGuardian: row.isGuardian,
});

const membershipEntry = (row: MembershipRow, figures: FeedFigures): MembershipEntry => ({
  id: row.id,
  userId: row.userId,
  groupId: row.groupId,
  role: row.role,
  linkCode: row.linkCode,
  protectedIdentity: row.protectedIdentity,
  personalGoalOre: row.personalGoalOre,
  figures,
});

const groupView = (row: GroupRow, figures: FeedFigures, version: number | null): GroupView => ({
  id: row.id,
  name: row.name,
  code: row.code,
  archived: row.archived,
  leaderboardVisible: row.leaderboardVisible,
  leaderboardMode: row.leaderboardMode,
  goalOre: row.goalOre,
  goalPurpose: row.goalPurpose,
  goalEndsOn: row.goalEndsOn,
  campaignStartsOn: row.campaignStartsOn,
  campaignEndsOn: row.campaignEndsOn,
  closingNote: row.closingNote,
  closingNoteAt: row.closingNoteAt,
  figures,
  version,
});

const figuresOf = (row: FeedFigures): FeedFigures => ({
  salesOre: row.salesOre,
  commissionOre: row.commissionOre,
  ordersCount: row.ordersCount,
});

export class ReadModelState {
  private readonly users = new Map<number, UserEntry>();
  private readonly memberships = new Map<number, MembershipEntry>();
  private readonly groups = new Map<number, GroupEntry>();
  /**
   * Figures the feed announced for a membership or group the model does not hold yet: a new one,
   * whose row is being read. Taken when the row arrives, so figures come from the feed alone.
   */
  private readonly pendingMembershipFigures = new Map<number, FeedFigures>();
  private readonly pendingGroupFigures = new Map<number, { figures: FeedFigures; version: number }>();

  get size(): { users: number; memberships: number; groups: number } {
    return { users: this.users.size, memberships: this.memberships.size, groups: this.groups.size };
  }

  /** Everything anew from one snapshot. */
  replaceAll(snapshot: Snapshot): void {
    this.users.clear();
    this.memberships.clear();
    this.groups.clear();
    this.pendingMembershipFigures.clear();
    this.pendingGroupFigures.clear();
    for (const row of snapshot.groups) {
      this.groups.set(row.id, { view: groupView(row, figuresOf(row), row.version), membershipIds: new Set(), derived: new Map() });
    }
    for (const row of snapshot.users) this.users.set(row.id, { row: userRow(row), membershipIds: new Set() });
    for (const row of snapshot.memberships) {
      this.memberships.set(row.id, membershipEntry(row, figuresOf(row)));
      this.users.get(row.userId)?.membershipIds.add(row.id);
      this.groups.get(row.groupId)?.membershipIds.add(row.id);
    }
  }

  membershipFigures(membershipId: number, figures: FeedFigures): void {
    const membership = this.memberships.get(membershipId);
    if (!membership) {
      this.pendingMembershipFigures.set(membershipId, figures);
      return;
    }
    membership.figures = figures;
    this.touch(membership.groupId);
  }

  groupFigures(groupId: number, figures: FeedFigures, version: number): void {
    const group = this.groups.get(groupId);
    if (!group) {
      this.pendingGroupFigures.set(groupId, { figures, version });
      return;
    }
    group.view = groupView(group.view, figures, version);
    group.derived.clear();
  }

  /** Rows read again after the feed named them: users and groups first, since memberships point at both. */
  applyNamedRows(rows: NamedRows): void {
    for (const [id, row] of rows.users) this.putUser(id, row);
    for (const [id, row] of rows.groups) this.putGroup(id, row);
    for (const [id, row] of rows.memberships) this.putMembership(id, row);
  }

  private putUser(id: number, row: UserRow | null): void {
    const entry = this.users.get(id);
    if (!row) {
      this.users.delete(id);
      for (const membershipId of entry?.membershipIds ?? []) this.touchMembership(membershipId);
      return;
    }
    const membershipIds = entry?.membershipIds ?? this.membershipIdsWhere((membership) => membership.userId === id);
    this.users.set(id, { row: userRow(row), membershipIds });
    for (const membershipId of membershipIds) this.touchMembership(membershipId);
  }

  /** A new user's or group's memberships the feed brought first (rare: a scan, not an index). */
  private membershipIdsWhere(belongs: (membership: MembershipEntry) => boolean): Set<number> {
    const ids = new Set<number>();
    for (const membership of this.memberships.values()) if (belongs(membership)) ids.add(membership.id);
    return ids;
  }

  private putGroup(id: number, row: GroupRow | null): void {
    const entry = this.groups.get(id);
    if (!row) {
      this.groups.delete(id);
      this.pendingGroupFigures.delete(id);
      return;
    }
    if (entry) {
      entry.view = groupView(row, entry.view.figures, entry.view.version);
      entry.derived.clear();
      return;
    }
    const pending = this.pendingGroupFigures.get(id);
    this.pendingGroupFigures.delete(id);
    const membershipIds = this.membershipIdsWhere((membership) => membership.groupId === id);
    this.groups.set(id, {
      view: groupView(row, pending?.figures ?? NO_FIGURES, pending?.version ?? null),
      membershipIds,
      derived: new Map(),
    });
  }

  private putMembership(id: number, row: MembershipRow | null): void {
    const entry = this.memberships.get(id);
    if (entry) {
      this.users.get(entry.userId)?.membershipIds.delete(id);
      this.groups.get(entry.groupId)?.membershipIds.delete(id);
      this.touch(entry.groupId);
    }
    if (!row) {
      this.memberships.delete(id);
      this.pendingMembershipFigures.delete(id);
      return;
    }
    const figures = entry?.figures ?? this.pendingMembershipFigures.get(id) ?? NO_FIGURES;
    this.pendingMembershipFigures.delete(id);
    this.memberships.set(id, membershipEntry(row, figures));
    this.users.get(row.userId)?.membershipIds.add(id);
    this.groups.get(row.groupId)?.membershipIds.add(id);
    this.touch(row.groupId);
  }

  private touchMembership(membershipId: number): void {
    const membership = this.memberships.get(membershipId);
    if (membership) this.touch(membership.groupId);
  }

  private touch(groupId: number): void {
    this.groups.get(groupId)?.derived.clear();
  }

  /**
   * The user's seller view; undefined for a user the model does not hold. Read on every seller
   * call, so it copies nothing it need not: the user's fields are named one by one (object rest
   * and spread cost more than the rest of the call), the membership and group are the model's own.
   */
  sellerViewRow(userId: number): SellerViewRow | undefined {
    const entry = this.users.get(userId);
    if (!entry) return undefined;
    const user = entry.row;
    let membership: MembershipEntry | null = null;
    // Through the membership, not active_group_id alone: a group the user has left counts as none.
    if (user.activeGroupId !== null) {
      for (const id of entry.membershipIds) {
        const candidate = this.memberships.get(id);
        if (candidate?.groupId === user.activeGroupId) membership = candidate;
      }
    }
    const group = membership && this.groups.get(membership.groupId);
    return {
      id: user.id,
      email: user.email,
      fullName: user.fullName,
      isSuperadmin: user.isSuperadmin,
      activeGroupId: user.activeGroupId,
      tokenVersion: user.tokenVersion,
      endedSessions: user.endedSessions,
      guardianConsent: user.guardianConsent,
      isGuardian: user.isGuardian,
      publicName: user.publicName,
      alias: user.alias,
      membership: group ? membership : null,
      group: group ? group.view : null,
    };
  }

  /**
   * An answer made from the group's members, made once and kept until anything of the group
   * changes (its figures, members, their names, its settings). Null for a group the model does not hold.
   */
  derived<T>(groupId: number, key: string, make: (members: MemberRow[]) => T): T | null {
    const group = this.groups.get(groupId);
    if (!group) return null;
    if (group.derived.has(key)) return group.derived.get(key) as T;
    const members: MemberRow[] = [];
    for (const id of group.membershipIds) {
      const membership = this.memberships.get(id)!;
      const user = this.users.get(membership.userId)?.row;
      if (!user) continue;
      members.push({
        userId: user.id,
        sellerName: user.fullName,
        role: membership.role,
        protectedIdentity: membership.protectedIdentity,
        guardianConsent: user.guardianConsent,
        erasedAt: user.erasedAt,
        ...membership.figures,
      });
    }
    const answer = make(members);
    group.derived.set(key, answer);
    return answer;
  }
}
