type Sonner = typeof import('sonner');

/**
 * Toasts (spec §9: one at a time; a new one replaces whatever is showing). sonner is loaded with
 * the first toast rather than with the first page (issue 7's JavaScript budget). Its region is put
 * on the page first and the toast added a moment later, so that a screen reader, which announces
 * changes to a live region it already knows, reads the first toast too.
 */
let sonner: Promise<Sonner> | undefined;
let regionShown: Promise<void> | undefined;
let showRegion: ((loaded: Sonner) => void) | undefined;

/** Called by <Toasts /> when it mounts: how to put sonner's region on the page. */
export function onToasterNeeded(show: (loaded: Sonner) => void): () => void {
  showRegion = show;
  return () => {
    if (showRegion === show) showRegion = undefined;
  };
}

async function ready(): Promise<Sonner> {
  const loaded = await (sonner ??= import('sonner'));
  regionShown ??= new Promise((resolve) => {
    showRegion?.(loaded);
    setTimeout(resolve, 150);
  });
  await regionShown;
  return loaded;
}

function show(kind: 'success' | 'error' | 'info', title: string, description?: string) {
  void ready().then(({ toast }) => {
    toast.dismiss();
    toast[kind](title, description ? { description } : undefined);
  });
}

export const notify = {
  success: (title: string, description?: string) => show('success', title, description),
  error: (title: string, description?: string) => show('error', title, description),
  info: (title: string, description?: string) => show('info', title, description),
};

/** The message of an error for a toast, or the fallback (spec §8 'Ett fel uppstod'). */
export const errorMessage = (error: unknown, fallback = 'Ett fel uppstod'): string =>
  error instanceof Error && error.message && error.message !== 'unauthorized' ? error.message : fallback;
