import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TProfileResponse, TUpdateNotificationsRequest, TUpdateNotificationsResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { profileQuery } from './profile';

/** POST /api/account/notifications: one opt-in or both; the answer is both as they now are. */
export const updateNotifications = (request: TUpdateNotificationsRequest) =>
  apiJson<TUpdateNotificationsResponse>('/api/account/notifications', { method: 'POST', body: request });

export function useUpdateNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotifications,
    onSuccess: (settings) =>
      queryClient.setQueryData<TProfileResponse>(profileQuery.queryKey, (profile) =>
        profile ? { ...profile, notifications: { ...profile.notifications, ...settings } } : profile,
      ),
  });
}
