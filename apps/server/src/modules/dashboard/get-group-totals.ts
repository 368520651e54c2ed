import type { TGroupTotalsResponse } from '@saljportalen/contract';
import { oreToSek } from '../../lib/money.js';
import type { SellerView } from '../figures/seller-view.js';

/** The active group's totals over the orders attributed to it, from the seller view (the group's rollup). */
export function getGroupTotals(view: SellerView): TGroupTotalsResponse {
  const { membership } = view;
  if (!membership) return { show_leaderboard: false, totals: { total_sales: 0, total_commission: 0, orders_count: 0 } };
  const figures = membership.groupFigures;
  return {
    show_leaderboard: membership.group.leaderboardVisible,
    totals: {
      total_sales: oreToSek(figures.salesOre),
      total_commission: oreToSek(figures.commissionOre),
      orders_count: figures.ordersCount,
    },
  };
}
