import { describe, expect, it } from 'vitest';
import { ReadModelState } from './read-model-state.js';
import type { GroupRow, MembershipRow, NamedRows, UserRow } from './rows.js';

const user = (id: number, changes: Partial<UserRow> = {}): UserRow => ({
  id,
  email: `u${id}@demo.se`,
  fullName: `Säljare ${id}`,
  isSuperadmin: false,
  activeGroupId: 1,
  tokenVersion: 0,
  endedSessions: [],
  guardianConsent: null,
  publicName: 'first_name',
  alias: null,
  erasedAt: null,
  isGuardian: false,
  ...changes,
});
const group = (id: number, changes: Partial<GroupRow> = {}): GroupRow => ({
  id,
  name: `Klass ${id}`,
  code: `KOD00${id}`,
  archived: false,
  leaderboardVisible: true,
  leaderboardMode: 'full',
  goalOre: null,
  goalPurpose: null,
  goalEndsOn: null,
  campaignStartsOn: null,
  campaignEndsOn: null,
  closingNote: null,
  closingNoteAt: null,
  ...changes,
});
const membership = (id: number, userId: number, groupId: number, changes: Partial<MembershipRow> = {}): MembershipRow => ({
  id,
  userId,
  groupId,
  role: 'seller',
  linkCode: `LINK${id}`,
  protectedIdentity: false,
  personalGoalOre: null,
  ...changes,
});
const figures = (salesOre: number) => ({ salesOre, commissionOre: salesOre / 4, ordersCount: salesOre > 0 ? 1 : 0 });
const named = (rows: {
  users?: [number, UserRow | null][];
  memberships?: [number, MembershipRow | null][];
  groups?: [number, GroupRow | null][];
}): NamedRows => ({
  users: new Map(rows.users ?? []),
  memberships: new Map(rows.memberships ?? []),
  groups: new Map(rows.groups ?? []),
});

function loaded(): ReadModelState {
  const state = new ReadModelState();
  state.replaceAll({
    users: [user(10), user(11)],
    groups: [{ ...group(1), ...figures(1000), version: 5 }],
    memberships: [
      { ...membership(100, 10, 1), ...figures(600) },
      { ...membership(101, 11, 1), ...figures(400) },
    ],
  });
  return state;
}

describe('the read model’s data', () => {
  it('answers a seller view from the snapshot, and follows the figures the feed announces', () => {
    const state = loaded();
    expect(state.sellerViewRow(10)).toMatchObject({
      membership: { id: 100, figures: figures(600) },
      group: { id: 1, version: 5, figures: figures(1000) },
    });
    state.membershipFigures(100, figures(900));
    state.groupFigures(1, figures(1300), 6);
    expect(state.sellerViewRow(10)).toMatchObject({ membership: { figures: figures(900) }, group: { version: 6, figures: figures(1300) } });
    expect(state.sellerViewRow(99)).toBeUndefined();
  });

  it('keeps figures announced before their new membership or group is read, and uses them when it is', () => {
    const state = loaded();
    state.groupFigures(2, figures(0), 7);
    state.membershipFigures(102, figures(0));
    state.membershipFigures(102, figures(249));
    state.applyNamedRows(
      named({ users: [[12, user(12, { activeGroupId: 2 })]], groups: [[2, group(2)]], memberships: [[102, membership(102, 12, 2)]] }),
    );
    expect(state.sellerViewRow(12)).toMatchObject({ membership: { id: 102, figures: figures(249) }, group: { id: 2, version: 7 } });
  });

  it('counts a group the user has left as none, and a deleted user as unknown', () => {
    const state = loaded();
    state.applyNamedRows(named({ memberships: [[100, null]] }));
    expect(state.sellerViewRow(10)).toMatchObject({ id: 10, membership: null, group: null });
    state.applyNamedRows(named({ users: [[11, null]] }));
    expect(state.sellerViewRow(11)).toBeUndefined();
  });

  it('makes a group’s derived answer once, and anew after anything of the group changes', () => {
    const state = loaded();
    let made = 0;
    const names = () =>
      state.derived(1, 'names', (members) => {
        made += 1;
        return members.map((member) => `${member.sellerName}:${member.salesOre}`).sort();
      });
    expect(names()).toEqual(['Säljare 10:600', 'Säljare 11:400']);
    expect(names()).toEqual(['Säljare 10:600', 'Säljare 11:400']);
    expect(made).toBe(1);
    const changes = [
      () => state.membershipFigures(101, figures(500)),
      () => state.groupFigures(1, figures(1100), 8),
      () => state.applyNamedRows(named({ users: [[10, user(10, { fullName: 'Åsa Ny' })]] })),
      () => state.applyNamedRows(named({ groups: [[1, group(1, { leaderboardMode: 'participation' })]] })),
      () => state.applyNamedRows(named({ memberships: [[101, membership(101, 11, 1, { protectedIdentity: true })]] })),
    ];
    for (const change of changes) {
      const before = made;
      change();
      names();
      expect(made).toBe(before + 1);
    }
    expect(names()).toEqual(['Säljare 11:500', 'Åsa Ny:600']);
    expect(state.derived(404, 'names', () => 'x')).toBeNull();
  });

  it('moves a membership to another group with its figures', () => {
    const state = loaded();
    state.applyNamedRows(named({ groups: [[2, group(2)]] }));
    state.applyNamedRows(named({ memberships: [[101, membership(101, 11, 2)]], users: [[11, user(11, { activeGroupId: 2 })]] }));
    expect(state.sellerViewRow(11)).toMatchObject({ membership: { id: 101, figures: figures(400) }, group: { id: 2 } });
    expect(state.derived(1, 'count', (members) => members.length)).toBe(1);
    expect(state.derived(2, 'count', (members) => members.length)).toBe(1);
  });
});
