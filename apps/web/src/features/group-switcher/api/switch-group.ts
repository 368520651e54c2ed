import { useMutation } from '@tanstack/react-query';
import type { TOkResponse, TSwitchGroupRequest } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';

/** Makes another of the user's groups the active one; the caller reloads the page (spec §2). */
export const switchGroup = (request: TSwitchGroupRequest) =>
  apiJson<TOkResponse>('/api/account/switch-group', { method: 'POST', body: request });

export const useSwitchGroup = () => useMutation({ mutationFn: switchGroup });
