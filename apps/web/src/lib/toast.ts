type Sonner = typeof import('sonner');

/**
 * Toasts (spec §9: one at a time; a new one replaces whatever is showing). sonner is not part of
 * the first download (issue 7's JavaScript budget): it loads at the visitor's first tap or key
 * press, so it is ready before anything they do can end in a toast, or else with the first toast.
 * Its region is on the page a moment before a toast goes into it, so that a screen reader, which
 * announces changes to a live region it already knows, reads the first toast too.
 */
const REGION_LEAD_MS = 150;
let sonner: Promise<Sonner> | undefined;
let loaded: { sonner: Sonner; at: number } | undefined;
let showRegion: ((sonner: Sonner) => void) | undefined;

/** Called by <Toasts /> when it mounts: how to put sonner's region on the page. */
export function onToasterNeeded(show: (sonner: Sonner) => void): () => void {
  showRegion = show;
  if (loaded) show(loaded.sonner);
  return () => {
    if (showRegion === show) showRegion = undefined;
  };
}

/** Loads sonner and puts its region on the page (at once if already done). */
export function prepareToasts(): Promise<Sonner> {
  sonner ??= import('sonner').then((module) => {
    loaded = { sonner: module, at: performance.now() };
    showRegion?.(module);
    return module;
  });
  return sonner;
}

async function ready(): Promise<Sonner> {
  const module = await prepareToasts();
  const lead = REGION_LEAD_MS - (performance.now() - loaded!.at);
  if (lead > 0) await new Promise((resolve) => setTimeout(resolve, lead));
  return module;
}

function show(kind: 'success' | 'error' | 'info', title: string, description?: string, sameAs?: string) {
  void ready().then(({ toast }) => {
    // The same message again while it shows (several calls failing at once, a double tap)
    // updates that toast, which starts its time anew, rather than sending it out and in again.
    // `sameAs` makes messages of one kind one toast whatever they say (each new sale replaces the last).
    const id = sameAs ?? `${kind}\n${title}\n${description ?? ''}`;
    if (!toast.getToasts().some((active) => active.id === id)) toast.dismiss();
    toast[kind](title, { id, description });
  });
}

export const notify = {
  success: (title: string, description?: string) => show('success', title, description),
  error: (title: string, description?: string) => show('error', title, description),
  info: (title: string, description?: string) => show('info', title, description),
  /** 'Ny försäljning! +249 kr' (issue 20): one toast, however many sales come while it shows. */
  sale: (title: string) => show('success', title, undefined, 'ny-forsaljning'),
  /** Takes away whatever toast shows, e.g. a failure that the page's next success has made old. */
  clear: () => {
    if (sonner) void ready().then(({ toast }) => toast.dismiss());
  },
};

/**
 * A 401/403 (ApiError.isUnauthorized) has already signed out and said 'Sessionen har gått ut'
 * (spec §8); a failure toast of the page's own would replace that.
 */
export const isSessionFailure = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { isUnauthorized?: unknown }).isUnauthorized === true;

/** A call that never reached the server (api-client.ts gives it status 0 and its own message). */
const isUnreachable = (error: unknown): error is Error => error instanceof Error && (error as { status?: unknown }).status === 0;

/**
 * A failure toast under the page's own title, unless the failure ended the session (see above).
 * Without a network it says so, whatever the page's own description (issue 33 point 4).
 */
export function notifyFailure(title: string, error: unknown, description = errorMessage(error)): void {
  if (!isSessionFailure(error)) notify.error(title, isUnreachable(error) ? error.message : description);
}

/** The message of an error for a toast, or the fallback (spec §8 'Ett fel uppstod'). */
export const errorMessage = (error: unknown, fallback = 'Ett fel uppstod'): string =>
  error instanceof Error && error.message && error.message !== 'unauthorized' ? error.message : fallback;
