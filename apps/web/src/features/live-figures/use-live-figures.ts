import { useEffect, useRef } from 'react';
import { getToken, subscribeSession } from '@/lib/session';
import { LiveConnection, type LiveHandlers } from './live-connection';

/** Changes that arrive together (a bulk import, a busy minute) are refetched once. */
const DEFAULT_COALESCE_MS = 150;

/**
 * Keeps the page's figures live while it is visible and someone is signed in: the stream opens
 * when the page shows and closes when it is hidden or the session ends. `onGroupsChanged` gets the
 * groups whose figures changed, a little after the changes, once for those that came together.
 */
export function useLiveFigures(handlers: {
  onGroupsChanged(groupIds: ReadonlySet<number>): void;
  onSale?(amount: number): void;
  onResync(): void;
  /** How long changes are gathered before one refetch (the admin pages, which see every group, wait longer). */
  coalesceMs?: number;
}): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    let pending = new Set<number>();
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    const live: LiveHandlers = {
      onGroupChanged(groupId) {
        pending.add(groupId);
        flushTimer ??= setTimeout(() => {
          const groups = pending;
          pending = new Set();
          flushTimer = undefined;
          latest.current.onGroupsChanged(groups);
        }, latest.current.coalesceMs ?? DEFAULT_COALESCE_MS);
      },
      onSale: (amount) => latest.current.onSale?.(amount),
      onResync: () => latest.current.onResync(),
    };
    const connection = new LiveConnection(live);
    const follow = () => {
      if (document.visibilityState === 'visible' && getToken() !== null) connection.start();
      else connection.stop();
    };
    follow();
    document.addEventListener('visibilitychange', follow);
    const unsubscribe = subscribeSession(follow);
    return () => {
      document.removeEventListener('visibilitychange', follow);
      unsubscribe();
      clearTimeout(flushTimer);
      connection.stop();
    };
  }, []);
}
