import { apiJson } from './api-client';

/** The dashboard's figures (spec §7), asked for by the small entry (src/main.ts) before the app's code has loaded. */
export const DASHBOARD_CALLS = ['/api/me/summary', '/api/group/totals', '/api/group/leaderboard-mine'] as const;
export type EarlyCall = (typeof DASHBOARD_CALLS)[number];

/** An early answer older than this is not used: it was for a first paint that went elsewhere. */
const FRESH_MS = 10_000;
const started = new Map<EarlyCall, { answer: Promise<unknown>; at: number }>();

/**
 * Starts the calls at once, from the small entry script, so that a phone's slow network carries
 * them while the app's code still downloads instead of after it has run (decision 045). A 401
 * here signs no one out: the answer is only a head start for the page's own call.
 */
export function requestEarly(calls: readonly EarlyCall[]): void {
  for (const path of calls) {
    const answer = apiJson(path, { signOutOnUnauthorized: false });
    // Taken by the page's query, or never (the visitor went elsewhere): a failure is its concern.
    answer.catch(() => undefined);
    started.set(path, { answer, at: performance.now() });
  }
}

/**
 * The answer of a call started early, once and while fresh, or else a new call. A failed early
 * call is made again, so that its failure (a session that ended, no network) is handled as any
 * call's is: by the page, with the app in place to sign out and say so.
 */
export function apiJsonEarly<T>(path: EarlyCall): Promise<T> {
  const early = started.get(path);
  started.delete(path);
  if (!early || performance.now() - early.at > FRESH_MS) return apiJson<T>(path);
  return (early.answer as Promise<T>).catch(() => apiJson<T>(path));
}
