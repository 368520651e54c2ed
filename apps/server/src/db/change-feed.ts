/**
 * The change feed: what the database announces on the channel 'saljportalen_live' (migration
 * 0015_live-figures), parsed into typed changes and handed to every subscriber of this process.
 * It knows nothing of HTTP: the event streams (modules/live/event-streams.ts) subscribe to it, and so may any
 * other in-memory state kept from the database. A subscriber that keeps state must treat `resync`
 * as "reload everything": the listening connection was lost, and what changed meanwhile was never
 * announced here.
 *
 * It also carries the data version (decision 057): the database's WAL insert position, read by a
 * barrier, a notification this process sends on its own listening connection. Notifications
 * arrive in commit order, so a barrier of version V arrives after every change committed before
 * V was read, in every listening process. `version()` answers with the version of a barrier sent
 * after it was called; a write's answer and a live event carry it, and a read that presents it is
 * answered by a read model that has applied the barrier of that version (or a later one).
 * One pump sends the barriers: one at a time, again after a failure (with backoff) until one goes
 * out, and every HEARTBEAT_MS when nobody asks while a reader keeps the feed warm (`keepWarm`), which
 * keeps the read model's freshness confirmed between its calls. An idle process sends none.
 */
import crypto from 'node:crypto';
import type { Database } from './client.js';
import type { Listening } from './notifications.js';

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
  /**
   * A barrier of some process (this one's carry `sentAt`, performance.now() when sent): every change
   * committed before `version` was read has been delivered before it.
   */
  | { kind: 'barrier'; processId: string; seq: number; version: number; sentAt?: number }
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
      const version = int(data.v);
      return typeof data.p === 'string' && seq !== undefined && version !== undefined
        ? { kind: 'barrier', processId: data.p, seq, version }
        : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * A barrier: the WAL insert position as a number (bytes since 0/0; a safe integer for 9 PB of WAL),
 * announced and answered in one statement. Read before the barrier commits, so every transaction
 * whose commit came before that position had its notifications queued before the barrier's.
 */
const BARRIER_SQL = `select pg_notify($1, json_build_object('k', 'b', 'p', $2::text, 'n', $3::int, 'v', position.v)::text),
  position.v::text as version
  from (select (pg_current_wal_insert_lsn() - '0/0')::bigint as v) as position`;

/** How often a barrier goes out when nobody asks for one: the read model's freshness (read-model.ts) is confirmed by them. */
export const HEARTBEAT_MS = 200;
/**
 * How long the heartbeat goes on after a reader last kept the feed warm. Every 200 ms on and on, it
 * cost an idle server a tenth of a core, and the database a notification to every listening process
 * (decision 079); the first call after a quiet spell waits for one barrier instead.
 */
export const WARM_MS = 10_000;
const RETRY_FIRST_MS = 50;
const RETRY_MAX_MS = 2_000;

interface Caller {
  resolve(version: number): void;
  reject(error: Error): void;
}

const stoppedError = () => new Error('ändringsflödet är stoppat');

/** Sends the barriers: one at a time, on the listening connection, again until one goes out. */
class BarrierPump {
  /** Tells this process's barriers from other processes' on the shared channel. */
  private readonly processId = crypto.randomBytes(6).toString('hex');
  private seq = 0;
  /** When this process's barriers on their way were sent. */
  private readonly sentAt = new Map<number, number>();
  /** Callers of `next()` since the barrier on its way was sent: the next one is theirs. */
  private waiting: Caller[] = [];
  private sending = false;
  private lastSentAt = -Infinity;
  private warmUntil = -Infinity;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;

  constructor(
    private readonly query: Listening['query'],
    private readonly log?: { warn(object: object, message: string): void },
  ) {}

  /** The version of a barrier sent after this call, once the database has taken it (fails once the feed is stopped). */
  next(): Promise<number> {
    return new Promise((resolve, reject) => {
      if (this.stopped) return reject(stoppedError());
      this.waiting.push({ resolve, reject });
      this.send();
    });
  }

  keepWarm(): void {
    this.warmUntil = performance.now() + WARM_MS;
  }

  heartbeat(): void {
    const now = performance.now();
    if (now < this.warmUntil && now - this.lastSentAt >= HEARTBEAT_MS) this.send(true);
  }

  /** The listening connection is back: a barrier waiting out its backoff goes now. */
  retryNow(): void {
    if (!this.retryTimer) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.retryMs = RETRY_FIRST_MS;
    this.send(true);
  }

  /** When this process sent the barrier `seq` (undefined for another process's). */
  delivered(processId: string, seq: number): number | undefined {
    if (processId !== this.processId) return undefined;
    const sentAt = this.sentAt.get(seq);
    for (const sent of this.sentAt.keys()) if (sent <= seq) this.sentAt.delete(sent);
    return sentAt;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    for (const caller of this.waiting.splice(0)) caller.reject(stoppedError());
  }

  private send(always = false): void {
    if (this.sending || this.retryTimer || this.stopped || (!always && this.waiting.length === 0)) return;
    this.sending = true;
    const batch = this.waiting;
    this.waiting = [];
    const seq = ++this.seq;
    const sentAt = performance.now();
    this.sentAt.set(seq, sentAt);
    this.lastSentAt = sentAt;
    this.query(BARRIER_SQL, [LIVE_CHANNEL, this.processId, seq])
      .then(
        (rows) => {
          this.retryMs = RETRY_FIRST_MS;
          this.failures = 0;
          const version = Number(rows[0]?.version);
          for (const caller of batch) caller.resolve(version);
        },
        (error: unknown) => {
          this.sentAt.delete(seq);
          if (this.stopped) {
            for (const caller of batch) caller.reject(stoppedError());
            return;
          }
          this.waiting = [...batch, ...this.waiting];
          // Told once per outage, not for every try.
          if (this.failures++ === 0) this.log?.warn({ err: error }, 'ändringsflödets spärr kunde inte skickas: försöker igen');
          this.retryTimer = setTimeout(() => {
            this.retryTimer = undefined;
            this.send(true);
          }, this.retryMs);
          this.retryTimer.unref();
          this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
        },
      )
      .finally(() => {
        this.sending = false;
        this.send();
      });
  }
}

export interface ChangeFeed {
  /** Calls `subscriber` with every change from now on; returns the unsubscribe. */
  subscribe(subscriber: FeedSubscriber): () => void;
  /**
   * The data version now: resolves with the version of a barrier sent after this call (every
   * change committed before the call is delivered before it, in every process). Waits, without
   * limit, for the listening connection to take one; fails once the feed is stopped.
   */
  version(): Promise<number>;
  /**
   * A reader answering from what the feed told it (the read model) is in use: barriers go out every
   * HEARTBEAT_MS until WARM_MS after the last call, so that its calls find it confirmed.
   */
  keepWarm(): void;
  /** Stops listening (at shutdown). */
  stop(): Promise<void>;
}

/**
 * Listens on the database (a dedicated connection on PostgreSQL, PGlite's listen embedded) and
 * tells subscribers `resync` when the listening connection comes back, or when the database
 * answers again after an outage the pool noticed. Its barrier pump runs from here on.
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
  // The pump sends nothing before this function returns: by then the connection listens.
  const pump = new BarrierPump((text, values) => listening.query(text, values), log);
  const listening: Listening = await database.listen(LIVE_CHANNEL, {
    onNotify(payload) {
      const change = parseChange(payload);
      if (change?.kind === 'barrier') change.sentAt = pump.delivered(change.processId, change.seq);
      if (change) publish(change);
    },
    onLost: () => publish({ kind: 'lost' }),
    onReconnected: () => {
      publish({ kind: 'resync' });
      pump.retryNow();
    },
  });
  const heartbeat = setInterval(() => pump.heartbeat(), HEARTBEAT_MS);
  heartbeat.unref();
  const stopRestored = database.availability.onRestored(() => publish({ kind: 'resync' }));
  return {
    subscribe(subscriber) {
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    version: () => pump.next(),
    keepWarm: () => pump.keepWarm(),
    async stop() {
      clearInterval(heartbeat);
      pump.stop();
      stopRestored();
      subscribers.clear();
      await listening.stop();
    },
  };
}
