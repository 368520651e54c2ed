import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProfileResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';

export const fetchProfile = () => apiJson<TProfileResponse>('/api/account/profile');

export const profileQuery = queryOptions({ queryKey: ['account', 'profile'], queryFn: fetchProfile });

export const useProfile = () => useQuery(profileQuery);
