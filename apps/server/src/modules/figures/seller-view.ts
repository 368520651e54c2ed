import type { FastifyRequest } from 'fastify';
import { currentUser } from '../../lib/current-user.js';
import { publicSellerName } from '../memberships/public-seller-name.js';
import type { SellerViewRow } from './read-model/read-model.js';
import { storedGoal, type StoredGoal } from './group-goal.js';

/**
 * The signed-in user with their membership in the active group, the group and both their figures,
 * from the read model (modules/read-model, decision 047): the seller calls authenticate with it
 * (the token version and ended sessions are checked on this very row) and answer from it, with no
 * round trip to the database. The membership, not users.active_group_id alone, decides: a group
 * the user has left counts as none.
 */
type LeaderboardMode = NonNullable<SellerViewRow['group']>['leaderboardMode'];

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
      /** Issue 31: the campaign's days (both or neither) and the closing note, as stored. */
      campaign: { startsOn: string; endsOn: string } | null;
      closingNote: { text: string; writtenAt: Date } | null;
      archived: boolean;
      figuresVersion: number | null;
    };
    personal: { salesOre: number; commissionOre: number; ordersCount: number };
    groupFigures: { salesOre: number; commissionOre: number; ordersCount: number };
  } | null;
}

/** The row `app.authenticateWith` read from the read model for this request. */
export function sellerView(request: FastifyRequest): SellerView {
  return sellerViewOfRow(currentUser(request), request.authRow as SellerViewRow);
}

/** The view of a row of the read model: the signed-in seller's own, or an approved child's for their guardian. */
export function sellerViewOfRow(user: ReturnType<typeof currentUser>, row: SellerViewRow): SellerView {
  const { membership, group } = row;
  // Every field named, no spread: this runs on every seller call.
  const awaitingGuardianConsent = row.guardianConsent === 'pending';
  const sellerName = publicSellerName({
    fullName: row.fullName,
    publicName: row.publicName,
    alias: row.alias,
    protectedIdentity: membership?.protectedIdentity ?? false,
  });
  if (!membership || !group) {
    return { user, awaitingGuardianConsent, isGuardian: row.isGuardian, publicSellerName: sellerName, membership: null };
  }
  return {
    user,
    awaitingGuardianConsent,
    isGuardian: row.isGuardian,
    publicSellerName: sellerName,
    membership: {
      id: membership.id,
      role: membership.role,
      linkCode: membership.linkCode,
      personalGoalOre: membership.personalGoalOre,
      group: {
        id: group.id,
        name: group.name,
        code: group.code,
        leaderboardVisible: group.leaderboardVisible,
        leaderboardMode: group.leaderboardMode,
        goal: storedGoal(group),
        campaign:
          group.campaignStartsOn && group.campaignEndsOn ? { startsOn: group.campaignStartsOn, endsOn: group.campaignEndsOn } : null,
        closingNote: group.closingNote && group.closingNoteAt ? { text: group.closingNote, writtenAt: group.closingNoteAt } : null,
        archived: group.archived,
        figuresVersion: group.version,
      },
      personal: membership.figures,
      groupFigures: group.figures,
    },
  };
}
