import type { TMeSummaryResponse } from '@saljportalen/contract';
import { oreToSek } from '../../lib/money.js';
import { personalLink } from '../memberships/active-membership.js';
import type { Db } from '../../db/client.js';
import { pendingCommissionOre } from '../figures/pending-commission.js';
import type { SellerView } from '../figures/seller-view.js';

/** The dashboard's personal figures for the user's active group, from the seller view (one row). */
export function getSellerSummary(
  view: SellerView,
  options: { publicUrl: string; holdDays: number; pendingCommissionOre: number },
): TMeSummaryResponse {
  const { user, membership } = view;
  const role = membership ? membership.role : null;
  const summaryUser = {
    id: user.id,
    full_name: user.fullName,
    public_seller_name: view.publicSellerName,
    role,
    awaiting_guardian_consent: view.awaitingGuardianConsent,
    is_guardian: view.isGuardian,
  };
  if (!membership) {
    return {
      user: summaryUser,
      group_hint: null,
      personal: { total_sales: 0, total_commission: 0, personal_link: null, orders_count: 0, goal: null, pending_commission: 0 },
      payout_hold_days: options.holdDays,
    };
  }
  const { group, personal } = membership;
  return {
    user: summaryUser,
    group_hint: {
      id: group.id,
      name: group.name,
      code: group.code,
      leaderboard_visible: group.leaderboardVisible,
      archived: group.archived,
    },
    personal: {
      total_sales: oreToSek(personal.salesOre),
      total_commission: oreToSek(personal.commissionOre),
      // Inactive until a guardian approves: nothing to share yet (issue 22).
      personal_link: view.awaitingGuardianConsent ? null : personalLink(options.publicUrl, membership.linkCode),
      orders_count: personal.ordersCount,
      // The pupil's own goal: this summary is the only answer that ever carries it (the guardian view reuses it).
      // Measured as the class goal is, in commission: the web shows total_commission against it (decision 038).
      goal: membership.personalGoalOre === null ? null : oreToSek(membership.personalGoalOre),
      pending_commission: oreToSek(options.pendingCommissionOre),
    },
    payout_hold_days: options.holdDays,
  };
}

/** The summary with the pupil's 'Väntande', read from the orders only under a holding period. */
export async function loadSellerSummary(
  db: Db,
  view: SellerView,
  options: { publicUrl: string; holdDays: number },
): Promise<TMeSummaryResponse> {
  const pending = view.membership ? await pendingCommissionOre(db, { membershipId: view.membership.id }, options.holdDays) : 0;
  return getSellerSummary(view, { ...options, pendingCommissionOre: pending });
}
