import { campaignState, type TCampaign, type TGroupTotalsResponse, type TParticipation } from '@saljportalen/contract';
import { stockholmDate } from '../../lib/dates.js';
import { oreToSek } from '../../lib/money.js';
import { leaderboardOf } from './get-group-leaderboard.js';
import type { ReadModel } from '../figures/read-model/read-model.js';
import type { SellerView } from '../figures/seller-view.js';
import { toGroupGoal } from '../figures/group-goal.js';
import type { Db } from '../../db/client.js';
import { pendingCommissionOre } from '../figures/pending-commission.js';

const NO_ONE: TParticipation = { started: 0, members: 0 };

/**
 * The active group's totals over the orders attributed to it, from the seller view (the group's
 * rollup), with its goal and how much of the class has started (issue 20). `participation` comes
 * from the group's leaderboard, made once per change of the group in the read model.
 */
export function getGroupTotals(
  view: SellerView,
  participation: TParticipation | null,
  pendingCommissionOre = 0,
  now = new Date(),
): TGroupTotalsResponse {
  const { membership } = view;
  if (!membership) {
    return {
      show_leaderboard: false,
      leaderboard_mode: 'full',
      totals: { total_sales: 0, total_commission: 0, orders_count: 0, pending_commission: 0 },
      goal: null,
      participation: NO_ONE,
      campaign: null,
      closing_note: null,
    };
  }
  const figures = membership.groupFigures;
  return {
    show_leaderboard: membership.group.leaderboardVisible,
    leaderboard_mode: membership.group.leaderboardMode,
    totals: {
      total_sales: oreToSek(figures.salesOre),
      total_commission: oreToSek(figures.commissionOre),
      orders_count: figures.ordersCount,
      pending_commission: oreToSek(pendingCommissionOre),
    },
    goal: toGroupGoal(membership.group.goal, now),
    participation: participation ?? NO_ONE,
    campaign: toCampaign(membership.group.campaign, now),
    closing_note: membership.group.closingNote && {
      text: membership.group.closingNote.text,
      written_at: membership.group.closingNote.writtenAt.toISOString(),
    },
  };
}

/** A campaign as the API shows it (issue 31): its days, and where it stands today in Stockholm. */
export function toCampaign(campaign: { startsOn: string; endsOn: string } | null, now = new Date()): TCampaign | null {
  if (!campaign) return null;
  return {
    starts_on: campaign.startsOn,
    ends_on: campaign.endsOn,
    ...campaignState(campaign.startsOn, campaign.endsOn, stockholmDate(now)),
  };
}

/** The totals with the participation of the group's leaderboard as it is now, and the class's 'Väntande'. */
export async function loadGroupTotals(
  db: Db,
  model: Pick<ReadModel, 'derived'>,
  view: SellerView,
  holdDays: number,
): Promise<TGroupTotalsResponse> {
  const version = view.membership && leaderboardOf(model, view.membership.group.id);
  const pending = view.membership ? await pendingCommissionOre(db, { groupId: view.membership.group.id }, holdDays) : 0;
  return getGroupTotals(view, version ? version.participation : null, pending);
}
