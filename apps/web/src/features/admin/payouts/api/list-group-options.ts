import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminGroup, TAdminGroupListResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { readList, readNumber, readString } from '@/lib/tolerant-readers';
import { payoutKeys } from './payout-keys';

export type GroupOption = Pick<TAdminGroup, 'id' | 'name' | 'archived'>;

/** The server's largest page: every group a school or club would have, in one answer. */
const GROUP_OPTIONS_LIMIT = 500;

/**
 * Every group, archived ones included: a refund after the last payout of an archived group
 * still has to be settled. Sorted by name on the server.
 */
export async function fetchGroupOptions(): Promise<GroupOption[]> {
  const answer = await apiJson<TAdminGroupListResponse>('/api/admin/groups', { query: { status: 'all', limit: GROUP_OPTIONS_LIMIT } });
  return readList(answer).map((raw) => ({
    id: readNumber(raw, 'id', 'group_id'),
    name: readString(raw, 'name', 'group_name') ?? '',
    archived: raw.archived === true,
  }));
}

export const groupOptionsQuery = queryOptions({ queryKey: payoutKeys.groupOptions(), queryFn: fetchGroupOptions });

export const useGroupOptions = () => useQuery(groupOptionsQuery);
