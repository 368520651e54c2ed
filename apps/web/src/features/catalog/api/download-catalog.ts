import { useMutation } from '@tanstack/react-query';
import { catalogFileName } from '@saljportalen/contract/plain';
import { apiDownload } from '@/lib/api-client';

/** The seller's personal catalogue PDF for the active group (spec §7 GET /api/catalog/me.pdf). */
export const downloadCatalog = (fullName: string, path = '/api/catalog/me.pdf') => apiDownload(path, catalogFileName(fullName));

/** `path`: another seller's catalogue the caller may fetch (a guardian's child, issue 22). */
export const useDownloadCatalog = (path?: string) => useMutation({ mutationFn: (fullName: string) => downloadCatalog(fullName, path) });
