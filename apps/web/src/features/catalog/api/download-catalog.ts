import { useMutation } from '@tanstack/react-query';
import { catalogFileName } from '@saljportalen/contract';
import { apiDownload } from '@/lib/api-client';

/** The seller's personal catalogue PDF for the active group (spec §7 GET /api/catalog/me.pdf). */
export const downloadCatalog = (fullName: string) => apiDownload('/api/catalog/me.pdf', catalogFileName(fullName));

export const useDownloadCatalog = () => useMutation({ mutationFn: downloadCatalog });
