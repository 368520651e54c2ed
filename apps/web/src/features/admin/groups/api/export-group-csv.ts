import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-client';

/** The file name the download is saved under: named after the group id (spec §7). */
export const groupCsvFileName = (groupId: number) => `grupp-${groupId}.csv`;

/** spec §7: the group's order lines as CSV for Swedish Excel, saved as a file. */
export const exportGroupCsv = (groupId: number) => apiDownload(`/api/admin/group/${groupId}/export`, groupCsvFileName(groupId));

export const useExportGroupCsv = (groupId: number) => useMutation({ mutationFn: () => exportGroupCsv(groupId) });
