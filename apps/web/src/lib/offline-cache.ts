import { useSyncExternalStore } from 'react';
import { onlineManager, type Query } from '@tanstack/react-query';
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import type { PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { ApiError } from './api-client';
import { QUERY_KEYS, queryClient } from './query-client';

/**
 * The installed app on a phone without network shows the dashboard as it last was (issue 19,
 * decision 030): TanStack Query's own persister keeps the dashboard's three queries in
 * localStorage. Nothing else is kept (no admin data, no account settings), it is forgotten when the
 * session ends, and it is not restored after a week.
 */
export const OFFLINE_CACHE_KEY = 'saljportalen.dashboard-cache';
export const OFFLINE_CACHE_MAX_AGE_MS = 7 * 24 * 60 * 60_000;

const DASHBOARD_KEYS: readonly (readonly string[])[] = [QUERY_KEYS.meSummary, QUERY_KEYS.groupTotals, QUERY_KEYS.leaderboard];
const isDashboardKey = (key: readonly unknown[]) =>
  DASHBOARD_KEYS.some((dashboardKey) => dashboardKey.length === key.length && dashboardKey.every((part, index) => part === key[index]));

// A query without a page watching it is dropped after gcTime, and a dropped query is no longer
// saved: the dashboard's live as long as the saved copy may. Offline they wait, paused, showing
// the saved answers, and are fetched when the network returns (every other call fails at once).
for (const key of DASHBOARD_KEYS) queryClient.setQueryDefaults(key, { gcTime: OFFLINE_CACHE_MAX_AGE_MS, networkMode: 'online' });

// TanStack Query assumes a network until the browser says it went away; an app opened without
// one (navigator.onLine false is reliable, true is not) starts offline, its queries paused.
if (typeof navigator !== 'undefined' && navigator.onLine === false) onlineManager.setOnline(false);

// Back online: the dashboard is fetched again at once, however fresh its saved answers looked.
onlineManager.subscribe((isOnline) => {
  if (isOnline) void queryClient.invalidateQueries({ predicate: (query) => isDashboardKey(query.queryKey) });
});

const storage = typeof window === 'undefined' ? undefined : window.localStorage;

export const offlineCacheOptions: Omit<PersistQueryClientOptions, 'queryClient'> = {
  persister: createAsyncStoragePersister({ storage, key: OFFLINE_CACHE_KEY, throttleTime: 1000 }),
  maxAge: OFFLINE_CACHE_MAX_AGE_MS,
  // Changed when the saved answers' shape changes, so an old copy is dropped rather than misread
  // (2: issue 20's goal, participation and per-mode leaderboard).
  buster: 'dashboard-2',
  dehydrateOptions: {
    shouldDehydrateQuery: (query: Query) => query.state.status === 'success' && isDashboardKey(query.queryKey),
  },
};

/** Whether a saved dashboard of this device is there to show (a session that began here and has not ended). */
export function hasOfflineDashboard(): boolean {
  try {
    const saved = JSON.parse(storage?.getItem(OFFLINE_CACHE_KEY) ?? 'null') as {
      timestamp?: number;
      clientState?: { queries?: { queryKey: unknown[] }[] };
    } | null;
    if (!saved?.timestamp || Date.now() - saved.timestamp > OFFLINE_CACHE_MAX_AGE_MS) return false;
    return (saved.clientState?.queries ?? []).some((query) => isDashboardKey(query.queryKey) && query.queryKey[0] === 'me');
  } catch {
    return false;
  }
}

/**
 * Forgets the signed-in person's data on this device, in memory and the saved copy: at sign-out,
 * when the server ends the session, and before a new sign-in (a shared family tablet).
 */
export function forgetSignedInData(): void {
  queryClient.clear();
  storage?.removeItem(OFFLINE_CACHE_KEY);
}

/** A call that never reached the server (fetch's TypeError, or a session that could not be renewed offline). */
export const isNetworkFailure = (error: unknown): boolean =>
  error instanceof TypeError || (error instanceof ApiError && error.status === 0);

/** Whether the browser has a network, re-rendering when it changes (TanStack Query's own view of it). */
export const useIsOnline = (): boolean =>
  useSyncExternalStore(
    (callback) => onlineManager.subscribe(callback),
    () => onlineManager.isOnline(),
    () => true,
  );
