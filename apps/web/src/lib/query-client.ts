import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

export const queryClient = new QueryClient({
  defaultOptions: {
    // Without a network a call fails at once and says so (issue 33 point 4), instead of waiting,
    // paused, and then running by itself when the network returns: a download nobody asked for
    // again, a page of placeholders for ever. The dashboard's own queries wait, paused, over their
    // saved answers (lib/offline-cache.ts).
    mutations: { networkMode: 'always' },
    queries: {
      networkMode: 'always',
      refetchOnWindowFocus: false,
      // A session problem is handled by signing out; retrying it only delays the login page.
      retry: (failureCount, error) => !(error instanceof ApiError && error.isUnauthorized) && failureCount < 1,
    },
  },
});

/** spec §9 data freshness. */
export const FRESHNESS = {
  personalSummary: 5 * 60_000,
  groupTotals: 5 * 60_000,
  leaderboard: 3 * 60_000,
  superadminCheck: 10 * 60_000,
} as const;

/**
 * Keys of the seller's figures, which one feature reads and others invalidate (a name change
 * shows in the greeting and on the leaderboard; the leaderboard setting changes the totals).
 * Kept here so that no feature imports another's queries to find them.
 */
export const QUERY_KEYS = {
  meSummary: ['me', 'summary'],
  groupTotals: ['group', 'totals'],
  leaderboard: ['group', 'leaderboard'],
} as const;
