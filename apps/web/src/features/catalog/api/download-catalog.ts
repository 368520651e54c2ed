import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-client';

/** "Elsa Åberg-Öst" → "katalog-elsa-aberg-ost.pdf", the name the server gives it too. */
export function catalogFileName(fullName: string): string {
  const slug = fullName
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `katalog-${slug || 'saljare'}.pdf`;
}

/** The seller's personal catalogue PDF for the active group (spec §7 GET /api/catalog/me.pdf). */
export const downloadCatalog = (fullName: string) => apiDownload('/api/catalog/me.pdf', catalogFileName(fullName));

export const useDownloadCatalog = () => useMutation({ mutationFn: downloadCatalog });
