import { toast } from 'sonner';

/** spec §9: one toast at a time; a new one replaces whatever is showing. */
function show(kind: 'success' | 'error' | 'info', title: string, description?: string) {
  toast.dismiss();
  toast[kind](title, description ? { description } : undefined);
}

export const notify = {
  success: (title: string, description?: string) => show('success', title, description),
  error: (title: string, description?: string) => show('error', title, description),
  info: (title: string, description?: string) => show('info', title, description),
};

/** The message of an error for a toast, or the fallback (spec §8 'Ett fel uppstod'). */
export const errorMessage = (error: unknown, fallback = 'Ett fel uppstod'): string =>
  error instanceof Error && error.message && error.message !== 'unauthorized' ? error.message : fallback;
