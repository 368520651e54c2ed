import type { TAdminSellerListQuery, TAdminSellerListResponse } from '@saljportalen/contract';
import type { Db } from '../../../db/client.js';
import { selectSellerRows } from '../../figures/seller-rows.js';

/** All sellers (spec §2 "All sellers"): one page of memberships with their figures, and the exact total. */
export async function listSellers(db: Db, query: TAdminSellerListQuery): Promise<TAdminSellerListResponse> {
  const filter = { groupId: query.group_id, status: query.status, from: query.from, to: query.to };
  const { items, total } = await selectSellerRows(db, { filter, sort: query.sort, page: { limit: query.limit, offset: query.offset } });
  return { items, total, limit: query.limit, offset: query.offset };
}
