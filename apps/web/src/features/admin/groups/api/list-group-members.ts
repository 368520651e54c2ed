import { useQuery } from '@tanstack/react-query';
import type { TAdminGroupMember, TAdminGroupMembersResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

export type GroupMember = TAdminGroupMember;

/** Everyone in the group, by name (Swedish order, from the server): whom an order can be assigned to. */
export async function fetchGroupMembers(groupId: number): Promise<GroupMember[]> {
  const answer = await apiJson<TAdminGroupMembersResponse>(`/api/admin/groups/${groupId}/members`);
  return answer.items;
}

export const groupMembersQuery = (groupId: number) => ({
  queryKey: [ADMIN_QUERY_ROOT, 'group-members', groupId] as const,
  queryFn: () => fetchGroupMembers(groupId),
  retry: retryServerFailureOnce,
});

export const useGroupMembers = (groupId: number | undefined) =>
  useQuery({ ...groupMembersQuery(groupId ?? 0), enabled: groupId !== undefined });
