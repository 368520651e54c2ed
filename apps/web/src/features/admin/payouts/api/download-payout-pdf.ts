import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-client';

export const payoutPdfFileName = (id: number) => `avrakning-${id}.pdf`;

/** Saves the payout's PDF (spec §7 GET /api/admin/payouts/{id}/export.pdf). */
export const downloadPayoutPdf = (id: number) => apiDownload(`/api/admin/payouts/${id}/export.pdf`, payoutPdfFileName(id));

export const useDownloadPayoutPdf = () => useMutation({ mutationFn: downloadPayoutPdf });
