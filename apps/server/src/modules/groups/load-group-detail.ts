import { eq } from 'drizzle-orm';
import type { TAdminGroupDetailResponse } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { groups } from '../../db/schema.js';
import { oreToSek } from '../../lib/money.js';
import { selectSellerRows } from '../sellers/seller-rows.js';
import { groupNotFound, loadGroupFigures, toAdminGroup } from './group-queries.js';

/** Spec §2 group detail: the group, its four card figures, and its people by sales, highest first. */
export async function loadGroupDetail(db: Db, groupId: number): Promise<TAdminGroupDetailResponse> {
  const [group] = await db.select().from(groups).where(eq(groups.id, groupId));
  if (!group) throw groupNotFound();
  const figures = (await loadGroupFigures(db, [group.id])).get(group.id)!;
  const sellers = await selectSellerRows(db, { filter: { groupId: group.id }, sort: 'total_sales' });
  return {
    group: toAdminGroup(group, figures),
    totals: {
      total_sales: oreToSek(figures.salesOre),
      total_commission: oreToSek(figures.commissionOre),
      orders_count: figures.ordersCount,
      sellers_count: figures.sellersCount,
    },
    sellers,
  };
}
