import { useQuery } from '@tanstack/react-query';
import type { TAdminGroupRecord, TAdminGroupRecordResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

/** A group's name and code without its figures (spec §7 GET /api/admin/groups/{id}). */
export async function fetchGroup(groupId: number): Promise<TAdminGroupRecord> {
  const answer = await apiJson<TAdminGroupRecordResponse>(`/api/admin/groups/${groupId}`);
  return answer.group;
}

export const groupQuery = (groupId: number) => ({
  queryKey: [ADMIN_QUERY_ROOT, 'group', groupId] as const,
  queryFn: () => fetchGroup(groupId),
  retry: retryServerFailureOnce,
});

export const useGroup = (groupId: number | undefined) => useQuery({ ...groupQuery(groupId ?? 0), enabled: groupId !== undefined });
