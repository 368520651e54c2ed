import type { FastifyRequest } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { prepared } from '../../db/prepared.js';
import { groupFigures, groups, guardianLinks, membershipFigures, memberships, users } from '../../db/schema.js';
import { authUserColumns, currentUser, type AuthUserLoader } from '../../plugins/auth.js';
import { publicSellerName } from '../memberships/public-seller-name.js';
import { rollupFigures } from './order-sums.js';
import { storedGoal, type StoredGoal } from '../groups/group-goal.js';

/**
 * The signed-in user with their membership in the active group, the group and both their figures,
 * in one prepared statement: the seller calls authenticate with it (the token version is checked
 * on this very row) and answer from it, one round trip instead of two. Joining through the
 * membership, not trusting users.active_group_id alone, makes a group the user has left count as
 * none; the figures come from the rollups (decision 007).
 */
const personal = rollupFigures(membershipFigures);
const group = rollupFigures(groupFigures);

const sellerViewQuery = prepared((db) =>
  db
    .select({
      ...authUserColumns,
      guardianConsent: users.guardianConsent,
      isGuardian: sql<boolean>`exists (select 1 from ${guardianLinks} where ${guardianLinks.guardianUserId} = ${users.id} and ${guardianLinks.approvedAt} is not null)`,
      publicName: users.publicName,
      alias: users.alias,
      membershipId: memberships.id,
      protectedIdentity: memberships.protectedIdentity,
      role: memberships.role,
      linkCode: memberships.linkCode,
      personalGoalOre: memberships.personalGoalOre,
      groupId: groups.id,
      groupName: groups.name,
      groupCode: groups.code,
      leaderboardVisible: groups.leaderboardVisible,
      leaderboardMode: groups.leaderboardMode,
      goalOre: groups.goalOre,
      goalPurpose: groups.goalPurpose,
      goalEndsOn: groups.goalEndsOn,
      groupArchived: groups.archived,
      figuresVersion: groupFigures.version,
      personalSalesOre: personal.salesOre,
      personalCommissionOre: personal.commissionOre,
      personalOrdersCount: personal.ordersCount,
      groupSalesOre: group.salesOre,
      groupCommissionOre: group.commissionOre,
      groupOrdersCount: group.ordersCount,
    })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.groupId, users.activeGroupId)))
    .leftJoin(groups, eq(groups.id, memberships.groupId))
    .leftJoin(membershipFigures, eq(membershipFigures.membershipId, memberships.id))
    .leftJoin(groupFigures, eq(groupFigures.groupId, groups.id))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('seller_view'),
);

type LeaderboardMode = (typeof groups.$inferSelect)['leaderboardMode'];

export type SellerViewRow = Awaited<ReturnType<ReturnType<typeof sellerViewQuery>['execute']>>[number];

export const loadSellerView: AuthUserLoader<SellerViewRow> = async (db: Db, userId: number) =>
  (await sellerViewQuery(db).execute({ userId }))[0];

export interface SellerView {
  user: ReturnType<typeof currentUser>;
  /** Under 13 and waiting for a guardian's consent (issue 22). */
  awaitingGuardianConsent: boolean;
  /** A guardian of at least one approved child. */
  isGuardian: boolean;
  /** The name a buyer sees (publicSellerName), for the share texts. */
  publicSellerName: string;
  /** Null without an active group, or for a group the user is no longer a member of. */
  membership: {
    id: number;
    role: 'seller' | 'admin';
    linkCode: string;
    /** The pupil's own goal in öre: for their own summary only (issue 20). */
    personalGoalOre: number | null;
    group: {
      id: number;
      name: string;
      code: string;
      leaderboardVisible: boolean;
      leaderboardMode: LeaderboardMode;
      goal: StoredGoal | null;
      archived: boolean;
      figuresVersion: number | null;
    };
    personal: { salesOre: number; commissionOre: number; ordersCount: number };
    groupFigures: { salesOre: number; commissionOre: number; ordersCount: number };
  } | null;
}

/** The row `app.authenticateWith(loadSellerView)` read for this request. */
export function sellerView(request: FastifyRequest): SellerView {
  return sellerViewOfRow(currentUser(request), request.authRow as SellerViewRow);
}

/** The view of a loaded row: the signed-in seller's own, or an approved child's for their guardian. */
export function sellerViewOfRow(user: ReturnType<typeof currentUser>, row: SellerViewRow): SellerView {
  const flags = {
    awaitingGuardianConsent: row.guardianConsent === 'pending',
    isGuardian: Boolean(row.isGuardian),
    publicSellerName: publicSellerName({
      fullName: row.fullName,
      publicName: row.publicName,
      alias: row.alias,
      protectedIdentity: row.protectedIdentity ?? false,
    }),
  };
  if (row.membershipId === null || row.groupId === null) return { user, ...flags, membership: null };
  return {
    user,
    ...flags,
    membership: {
      id: row.membershipId,
      role: row.role!,
      linkCode: row.linkCode!,
      personalGoalOre: row.personalGoalOre,
      group: {
        id: row.groupId,
        name: row.groupName!,
        code: row.groupCode!,
        leaderboardVisible: row.leaderboardVisible!,
        leaderboardMode: row.leaderboardMode!,
        goal: storedGoal(row),
        archived: row.groupArchived!,
        figuresVersion: row.figuresVersion,
      },
      personal: { salesOre: row.personalSalesOre, commissionOre: row.personalCommissionOre, ordersCount: row.personalOrdersCount },
      groupFigures: { salesOre: row.groupSalesOre, commissionOre: row.groupCommissionOre, ordersCount: row.groupOrdersCount },
    },
  };
}
