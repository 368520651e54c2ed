/**
 * The change feed: what the database announces on the channel 'saljportalen_live' (migration
 * 0015_live-figures), parsed into typed changes and handed to every subscriber of this process.
 * It knows nothing of HTTP: the event streams (modules/live/event-streams.ts) subscribe to it, and so may any
 * other in-memory state kept from the database. A subscriber that keeps state must treat `resync`
 * as "reload everything": the listening connection was lost, and what changed meanwhile was never
 * announced here.
 */
import type { Database } from './client.js';
import type { StopListening } from './notifications.js';

export const LIVE_CHANNEL = 'saljportalen_live';

export type FeedChange =
  /** The group's figures (group_figures.version) moved: orders, refunds, cancellations, assignments, members, names. */
  | { kind: 'figures'; groupId: number; version: number }
  /** A payout of the group was created or paid. */
  | { kind: 'payout'; groupId: number; payoutId: number }
  /** New sale lines of one seller's link in one statement, summed. */
  | { kind: 'sale'; groupId: number; membershipId: number; amountOre: number }
  /** A user's sessions or superadmin rights changed. */
  | { kind: 'access'; userId: number }
  /** Changes may have been missed: reload whatever is kept. */
  | { kind: 'resync' };

export type FeedSubscriber = (change: FeedChange) => void;

const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined);

/** One notification's payload as a change; undefined for anything not of ours. */
export function parseChange(payload: string): FeedChange | undefined {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (!data || typeof data !== 'object') return undefined;
  const groupId = int(data.g);
  switch (data.k) {
    case 'f': {
      const version = int(data.v);
      return groupId !== undefined && version !== undefined ? { kind: 'figures', groupId, version } : undefined;
    }
    case 'p': {
      const payoutId = int(data.p);
      return groupId !== undefined && payoutId !== undefined ? { kind: 'payout', groupId, payoutId } : undefined;
    }
    case 's': {
      const membershipId = int(data.m);
      const amountOre = int(data.a);
      return groupId !== undefined && membershipId !== undefined && amountOre !== undefined
        ? { kind: 'sale', groupId, membershipId, amountOre }
        : undefined;
    }
    case 'u': {
      const userId = int(data.u);
      return userId !== undefined ? { kind: 'access', userId } : undefined;
    }
    default:
      return undefined;
  }
}

export interface ChangeFeed {
  /** Calls `subscriber` with every change from now on; returns the unsubscribe. */
  subscribe(subscriber: FeedSubscriber): () => void;
  /** Stops listening (at shutdown). */
  stop(): Promise<void>;
}

/**
 * Listens on the database (a dedicated connection on PostgreSQL, PGlite's listen embedded) and
 * tells subscribers `resync` when the listening connection comes back, or when the database
 * answers again after an outage the pool noticed.
 */
export async function startChangeFeed(
  database: Pick<Database, 'listen' | 'availability'>,
  log?: { warn(object: object, message: string): void },
): Promise<ChangeFeed> {
  const subscribers = new Set<FeedSubscriber>();
  const publish = (change: FeedChange) => {
    for (const subscriber of subscribers) {
      try {
        subscriber(change);
      } catch (error) {
        log?.warn({ err: error, change: change.kind }, 'en prenumerant på ändringsflödet misslyckades');
      }
    }
  };
  const stopListening: StopListening = await database.listen(LIVE_CHANNEL, {
    onNotify(payload) {
      const change = parseChange(payload);
      if (change) publish(change);
    },
    onReconnected: () => publish({ kind: 'resync' }),
  });
  const stopRestored = database.availability.onRestored(() => publish({ kind: 'resync' }));
  return {
    subscribe(subscriber) {
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    async stop() {
      stopRestored();
      subscribers.clear();
      await stopListening();
    },
  };
}
