import { ADMIN_PAGE_SIZE_DEFAULT, type TAdminGroupDetailQuery, type TAdminGroupDetailResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { oreToSek } from '../../lib/money.js';
import { selectSellerRows } from '../figures/seller-rows.js';
import { groupWithFiguresQuery, toAdminGroup } from '../figures/group-rows.js';
import { groupNotFound } from './group-queries.js';

/**
 * Spec §2 group detail: the group, its four card figures over the whole group, and one page of its
 * people by sales, highest first, with the exact number of people.
 */
export async function loadGroupDetail(
  db: Db,
  groupId: number,
  page: TAdminGroupDetailQuery = { limit: ADMIN_PAGE_SIZE_DEFAULT, offset: 0 },
): Promise<TAdminGroupDetailResponse> {
  const [row] = await groupWithFiguresQuery(db).execute({ groupId });
  if (!row) throw groupNotFound();
  const { group, ...figures } = row;
  const sellers = await selectSellerRows(db, { filter: { groupId: group.id }, sort: 'total_sales', page });
  return {
    group: toAdminGroup(group, figures),
    totals: {
      total_sales: oreToSek(figures.salesOre),
      total_commission: oreToSek(figures.commissionOre),
      orders_count: figures.ordersCount,
      sellers_count: figures.sellersCount,
    },
    sellers: sellers.items,
    sellers_page: { total: sellers.total, limit: page.limit, offset: page.offset },
  };
}
