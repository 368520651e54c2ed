/**
 * The change feed: what the database announces on the channel 'saljportalen_live' (migration
 * 0015_live-figures), parsed into typed changes and handed to every subscriber of this process.
 * It knows nothing of HTTP: the event streams (modules/live/event-streams.ts) subscribe to it, and so may any
 * other in-memory state kept from the database. A subscriber that keeps state must treat `resync`
 * as "reload everything": the listening connection was lost, and what changed meanwhile was never
 * announced here.
 */
import { sql } from 'drizzle-orm';
import type { Database, Db } from './client.js';
import type { StopListening } from './notifications.js';

export const LIVE_CHANNEL = 'saljportalen_live';

/** Figures as the rollups hold them (migration 0003), in öre. */
export interface FeedFigures {
  salesOre: number;
  commissionOre: number;
  ordersCount: number;
}

export type FeedChange =
  /** The group's figures (group_figures.version) moved: orders, refunds, cancellations, assignments, members, names. */
  | { kind: 'figures'; groupId: number; version: number; figures: FeedFigures }
  /** One membership's figures, their new values (migration 0017). */
  | { kind: 'membership-figures'; membershipId: number; groupId: number; figures: FeedFigures }
  /** A payout of the group was created or paid. */
  | { kind: 'payout'; groupId: number; payoutId: number }
  /** New sale lines of one seller's link in one statement, summed. */
  | { kind: 'sale'; groupId: number; membershipId: number; amountOre: number }
  /** A user's sessions or superadmin rights changed. */
  | { kind: 'access'; userId: number }
  /** A user was created, deleted or changed as seller calls show them, or became or stopped being a guardian (0017). */
  | { kind: 'user'; userId: number }
  /** A membership was created, changed or deleted (0017). */
  | { kind: 'membership'; membershipId: number }
  /** A group was created, changed or deleted (0017). */
  | { kind: 'group'; groupId: number }
  /** A process's own marker (`announceBarrier`): everything committed before it has been delivered. */
  | { kind: 'barrier'; processId: string; seq: number }
  /** The listening connection is lost: until the `resync` that follows, nothing is announced here. */
  | { kind: 'lost' }
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
  const figures = (): FeedFigures | undefined => {
    const salesOre = int(data.s);
    const commissionOre = int(data.c);
    const ordersCount = int(data.n);
    return salesOre !== undefined && commissionOre !== undefined && ordersCount !== undefined
      ? { salesOre, commissionOre, ordersCount }
      : undefined;
  };
  switch (data.k) {
    case 'f': {
      const version = int(data.v);
      const sums = figures();
      return groupId !== undefined && version !== undefined && sums ? { kind: 'figures', groupId, version, figures: sums } : undefined;
    }
    case 'mf': {
      const membershipId = int(data.m);
      const sums = figures();
      return groupId !== undefined && membershipId !== undefined && sums
        ? { kind: 'membership-figures', membershipId, groupId, figures: sums }
        : undefined;
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
    case 'u':
    case 'us': {
      const userId = int(data.u);
      if (userId === undefined) return undefined;
      return data.k === 'u' ? { kind: 'access', userId } : { kind: 'user', userId };
    }
    case 'ms': {
      const membershipId = int(data.m);
      return membershipId !== undefined ? { kind: 'membership', membershipId } : undefined;
    }
    case 'gr':
      return groupId !== undefined ? { kind: 'group', groupId } : undefined;
    case 'b': {
      const seq = int(data.n);
      return typeof data.p === 'string' && seq !== undefined ? { kind: 'barrier', processId: data.p, seq } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Announces a barrier of this process on the feed. It is delivered after every change committed
 * before it was sent (notifications arrive in commit order), so once a subscriber sees it, it has
 * seen all of those.
 */
export async function announceBarrier(db: Pick<Db, 'execute'>, processId: string, seq: number): Promise<void> {
  await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${JSON.stringify({ k: 'b', p: processId, n: seq })})`);
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
    onLost: () => publish({ kind: 'lost' }),
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
