import { useQuery } from '@tanstack/react-query';
import type { TAdminGroupDetailQuery, TAdminGroupDetailResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

/** People in the group's table per page: a class fits on one, a large club gets a pager. */
export const GROUP_PEOPLE_PAGE_SIZE = 50;

/**
 * The group, its totals over the whole group and one page of its people, highest total sales
 * first (spec §2; the server sorts and counts them, `sellers_page.total`).
 */
export type GroupDetail = TAdminGroupDetailResponse;

export function fetchGroupDetail(groupId: number, offset: number): Promise<GroupDetail> {
  const query: TAdminGroupDetailQuery = { limit: GROUP_PEOPLE_PAGE_SIZE, offset };
  return apiJson<TAdminGroupDetailResponse>(`/api/admin/group/${groupId}`, { query });
}

/** Every page of a group shares the prefix `[admin, 'group-detail', groupId]`. */
export const groupDetailQuery = (groupId: number, offset: number) => ({
  queryKey: [ADMIN_QUERY_ROOT, 'group-detail', groupId, offset] as const,
  queryFn: () => fetchGroupDetail(groupId, offset),
  retry: retryServerFailureOnce,
});

/** Another page of the same group keeps the shown one until it arrives; another group never does. */
export const useGroupDetail = (groupId: number | undefined, offset: number) =>
  useQuery({
    ...groupDetailQuery(groupId ?? 0, offset),
    enabled: groupId !== undefined,
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === groupId ? previous : undefined),
  });
