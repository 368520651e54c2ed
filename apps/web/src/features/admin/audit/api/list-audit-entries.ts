import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TAuditResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';
import { ADMIN_QUERY_ROOT, retryServerFailureOnce } from '../../admin-page-helpers';

export const AUDIT_PAGE_SIZE = 25;

export const fetchAuditEntries = (action: string | undefined, offset: number) =>
  apiJson<TAuditResponse>('/api/admin/audit', {
    query: { action, page: Math.floor(offset / AUDIT_PAGE_SIZE) + 1, page_size: AUDIT_PAGE_SIZE },
  });

/** Another page or filter keeps the shown list until the new one arrives. */
export const useAuditEntries = (action: string | undefined, offset: number) =>
  useQuery({
    queryKey: [ADMIN_QUERY_ROOT, 'audit', action ?? 'all', offset] as const,
    queryFn: () => fetchAuditEntries(action, offset),
    retry: retryServerFailureOnce,
    placeholderData: keepPreviousData,
  });
