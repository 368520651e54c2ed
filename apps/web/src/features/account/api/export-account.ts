import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-client';

/** The name the file is saved under, as the server names it: the day of the download. */
export const accountExportFileName = (now = new Date()) => `mina-uppgifter-${now.toISOString().slice(0, 10)}.json`;

/** 'Ladda ner mina uppgifter' (issue 22): everything stored about the person, as one JSON file. */
export const exportAccount = () => apiDownload('/api/account/export', accountExportFileName());

export const useExportAccount = () => useMutation({ mutationFn: exportAccount });
