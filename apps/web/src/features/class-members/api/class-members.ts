import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TGroupMembersResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';

/** The class's people with their protected-identity mark: the group's admin, or a superadmin. */
export const fetchClassMembers = (groupId: number) => apiJson<TGroupMembersResponse>(`/api/group/members?group_id=${groupId}`);

export const classMembersQuery = (groupId: number) =>
  queryOptions({ queryKey: ['group', 'members', groupId], queryFn: () => fetchClassMembers(groupId) });

export const useClassMembers = (groupId: number) => useQuery(classMembersQuery(groupId));

/** The class's pupils alone (seller memberships), for a list the teacher ticks. */
export const useClassPupils = (groupId: number) =>
  useQuery({ ...classMembersQuery(groupId), select: (answer) => answer.items.filter((member) => member.role === 'seller') });
