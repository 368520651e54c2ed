import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { clearSession } from '@/lib/session';

/** Revokes the refresh cookie on the server, then forgets the token here whatever the answer. */
export async function logout(): Promise<void> {
  try {
    await apiJson('/api/auth/logout', { method: 'POST', auth: false });
  } finally {
    clearSession();
  }
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: logout, onSettled: () => queryClient.clear() });
}
