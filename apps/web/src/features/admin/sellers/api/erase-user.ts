import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TOkResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT } from '../../admin-page-helpers';

/** Issue 22: the superadmin erases a person's account, as 'Radera mitt konto' would. */
export const eraseUser = (userId: number) => apiJson<TOkResponse>(`/api/admin/users/${userId}/erase`, { method: 'POST' });

export function useEraseUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: eraseUser,
    // Every list and figure page shows the person's name: all of them are read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_ROOT] }),
  });
}
