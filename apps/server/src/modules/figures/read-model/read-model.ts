/**
 * The seller calls' read model (issue 23, decision 047): every user, membership and group with
 * their figures, held in this process and kept exact by the database's change feed. It is
 * loaded at start and again after every `resync` (the listening connection came back, or the
 * database did); between those, the feed's changes are applied in the order their transactions
 * committed. Figures arrive with their values; any other change names a row, read again.
 *
 * Exactness, for the calls that read it (`current()` first):
 * - while it is loading or its feed is lost, a call waits (at most `waitMs`, then 503);
 * - a write this process committed (db/committed-writes.ts: a request's, a job's, anyone's) is
 *   followed by a barrier announced on the feed; a call waits until the barrier of the writes
 *   committed before it has come back, so no answer predates a change this process has made;
 * - a change committed through another process is here as soon as its notification is, and a
 *   call is answered only while a barrier sent at most FRESH_MS ago has come back (one goes out
 *   every HEARTBEAT_MS): a process whose line to the database went silent stops answering within
 *   a second instead of answering from what it last heard.
 */
import crypto from 'node:crypto';
import { announceBarrier, type ChangeFeed, type FeedChange } from '../../../db/change-feed.js';
import type { Db } from '../../../db/client.js';
import type { CommittedWrites } from '../../../db/committed-writes.js';
import { databaseUnavailable } from '../../../errors.js';
import { readModelLoads, readModelReady } from '../../../lib/metrics.js';
import { ReadModelState, type MemberRow, type SellerViewRow } from './read-model-state.js';
import { readNamedRows, readSnapshot } from './rows.js';

export type { MemberRow, SellerViewRow } from './read-model-state.js';

interface Log {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** A change waiting to be applied; `done` is told once it is. */
interface Queued {
  change: FeedChange;
  done?: () => void;
}

interface Waiter {
  writes: number;
  resolve: () => void;
  reject: (error: unknown) => void;
  timer?: NodeJS.Timeout;
}

type NamedKind = 'user' | 'access' | 'membership' | 'group';
const isNamed = (change: FeedChange): change is Extract<FeedChange, { kind: NamedKind }> =>
  change.kind === 'user' || change.kind === 'access' || change.kind === 'membership' || change.kind === 'group';

/**
 * How old the model's last confirmation may be: a barrier sent at most this long ago has come back,
 * so every change committed anywhere before then is applied. A revoked session or membership is
 * refused everywhere within this time, also by a process whose line to the database went silent.
 */
const FRESH_MS = 1_000;
/** How often a barrier is sent when no write sends one: the confirmation above, kept fresh. */
const HEARTBEAT_MS = 200;
const RELOAD_RETRY_FIRST_MS = 100;
const RELOAD_RETRY_MAX_MS = 5_000;

export class ReadModel {
  /** Tells this process's barriers from other processes' on the shared feed. */
  readonly processId = crypto.randomBytes(6).toString('hex');
  private readonly state = new ReadModelState();
  private queue: Queued[] = [];
  private draining = false;
  private ready = false;
  private stopped = false;
  private unsubscribe: () => void = () => {};

  /** Writes this process has finished. */
  private writes = 0;
  /** Writes known to be applied: a barrier sent after them came back, or a load began after them. */
  private coveredWrites = 0;
  /** Barriers sent: each covers the writes finished when it was sent. */
  private barrierSeq = 0;
  private readonly barrierCovers = new Map<number, { writes: number; sentAt: number }>();
  /** When the last barrier to come back was sent (performance.now()). */
  private confirmedAt = -Infinity;
  private heartbeat: NodeJS.Timeout | undefined;
  private sendingBarrier = false;
  private barrierAgain = false;
  /** The barrier whose return makes the model ready after a load (the changes queued behind the load are applied by then). */
  private readyAtBarrier: number | null = null;
  /** Renewed by every resync and loss of the feed: a load is good only if none came after it began. */
  private generation = 0;
  private readonly waiters = new Set<Waiter>();

  constructor(
    private readonly options: {
      db: Db;
      feed: Pick<ChangeFeed, 'subscribe'>;
      /** This process's committed writes: each is followed by a barrier. */
      writes: Pick<CommittedWrites, 'onWrite'>;
      log?: Log;
      /** How long a call waits for the model to be exact before it is answered 503. */
      waitMs?: number;
    },
  ) {}

  /** Subscribes to the feed and loads everything; resolves once the model is exact. */
  async start(): Promise<void> {
    const unsubscribeFeed = this.options.feed.subscribe((change) => this.enqueue({ change }));
    const unsubscribeWrites = this.options.writes.onWrite(() => this.noteWrite());
    this.unsubscribe = () => {
      unsubscribeFeed();
      unsubscribeWrites();
    };
    this.enqueue({ change: { kind: 'resync' } });
    // However long the first load takes at the data's scale: the server listens after it.
    await this.current(null);
    this.heartbeat = setInterval(() => {
      if (!this.sendingBarrier) this.sendBarrier();
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.heartbeat);
    this.unsubscribe();
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(databaseUnavailable());
    }
    this.waiters.clear();
    this.setReady(false);
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** A write of this process committed: reads from now on wait for it to be here. */
  private noteWrite(): void {
    this.writes += 1;
    this.sendBarrier();
  }

  /**
   * Resolves once the model is loaded, listening and holds every write this process had finished
   * when called; undefined when it already does (the usual case: no await). After `waitMs`
   * (null: no limit) it fails with 503.
   */
  current(waitMs: number | null = this.options.waitMs ?? 5_000): Promise<void> | undefined {
    const writes = this.writes;
    if (this.ready && this.coveredWrites >= writes && this.fresh()) return undefined;
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { writes, resolve, reject };
      if (waitMs !== null) {
        waiter.timer = setTimeout(() => {
          this.waiters.delete(waiter);
          reject(databaseUnavailable());
        }, waitMs);
        waiter.timer.unref();
      }
      this.waiters.add(waiter);
      // A barrier that failed to go out is sent again by whoever waits for it.
      if ((this.coveredWrites < writes || this.readyAtBarrier !== null || !this.fresh()) && !this.sendingBarrier) {
        const seq = this.sendBarrier();
        if (this.readyAtBarrier !== null && seq !== null) this.readyAtBarrier = seq;
      }
    });
  }

  /**
   * The user's seller view, exact as of this call. At hand (no promise) when the model is current
   * and holds the user, as on nearly every call; a user the model does not hold yet (created a
   * moment ago through another process) is read in the feed's order.
   */
  sellerViewRow(userId: number): SellerViewRow | undefined | Promise<SellerViewRow | undefined> {
    const waiting = this.current();
    if (waiting) return waiting.then(() => this.sellerViewRowOrRead(userId));
    return this.sellerViewRowOrRead(userId);
  }

  private sellerViewRowOrRead(userId: number): SellerViewRow | undefined | Promise<SellerViewRow | undefined> {
    return this.state.sellerViewRow(userId) ?? this.readUser(userId);
  }

  private async readUser(userId: number): Promise<SellerViewRow | undefined> {
    await new Promise<void>((done) => this.enqueue({ change: { kind: 'user', userId }, done }));
    await this.current();
    return this.state.sellerViewRow(userId);
  }

  /** See ReadModelState.derived: an answer made from a group's members, kept until the group changes. */
  derived<T>(groupId: number, key: string, make: (members: MemberRow[]) => T): T | null {
    return this.state.derived(groupId, key, make);
  }

  private enqueue(item: Queued): void {
    if (this.stopped) {
      item.done?.();
      return;
    }
    const { kind } = item.change;
    if (kind === 'resync' || kind === 'lost') {
      // What was queued is superseded by the load to come; until it is done, nothing is served.
      for (const pending of this.queue) pending.done?.();
      this.queue = [];
      this.generation += 1;
      this.readyAtBarrier = null;
      this.setReady(false);
      if (kind === 'lost') return;
    }
    this.queue.push(item);
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length > 0 && !this.stopped) {
        const item = this.queue.shift()!;
        const { change } = item;
        if (isNamed(change)) {
          // Consecutive names are read together: each read is as fresh as any of them needs.
          const run = [item];
          while (this.queue.length > 0 && isNamed(this.queue[0]!.change)) run.push(this.queue.shift()!);
          await this.reloadNamed(run);
          continue;
        }
        switch (change.kind) {
          case 'figures':
            this.state.groupFigures(change.groupId, change.figures, change.version);
            break;
          case 'membership-figures':
            this.state.membershipFigures(change.membershipId, change.figures);
            break;
          case 'barrier':
            if (change.processId === this.processId) this.barrierReturned(change.seq);
            break;
          case 'resync':
            await this.load();
            break;
          default:
            break;
        }
        item.done?.();
      }
    } finally {
      this.draining = false;
    }
  }

  private async reloadNamed(run: Queued[]): Promise<void> {
    const ids = { users: new Set<number>(), memberships: new Set<number>(), groups: new Set<number>() };
    for (const { change } of run) {
      if (change.kind === 'user' || change.kind === 'access') ids.users.add(change.userId);
      if (change.kind === 'membership') ids.memberships.add(change.membershipId);
      if (change.kind === 'group') ids.groups.add(change.groupId);
    }
    try {
      const rows = await readNamedRows(this.options.db, {
        users: [...ids.users],
        memberships: [...ids.memberships],
        groups: [...ids.groups],
      });
      if (!this.stopped) this.state.applyNamedRows(rows);
    } catch (error) {
      // A change that cannot be read leaves the model inexact: load it all again.
      this.options.log?.warn({ err: error }, 'läsmodellen kunde inte läsa en ändring: den läses in på nytt');
      this.enqueue({ change: { kind: 'resync' } });
    } finally {
      for (const item of run) item.done?.();
    }
  }

  /** Everything from one snapshot, retried with backoff while the database does not answer. */
  private async load(): Promise<void> {
    let retryMs = RELOAD_RETRY_FIRST_MS;
    for (;;) {
      if (this.stopped) return;
      // Every write finished before the snapshot is read is in it.
      const writesBefore = this.writes;
      const generation = this.generation;
      const started = performance.now();
      try {
        const snapshot = await readSnapshot(this.options.db);
        if (this.stopped || generation !== this.generation) return;
        this.state.replaceAll(snapshot);
        this.coveredWrites = Math.max(this.coveredWrites, writesBefore);
        readModelLoads.inc();
        this.options.log?.info({ ...this.state.size, ms: Math.round(performance.now() - started) }, 'läsmodellen är inläst');
        // Changes already queued behind the load may predate it: ready once a barrier sent now is back.
        this.readyAtBarrier = this.sendBarrier(true);
        return;
      } catch (error) {
        this.options.log?.warn({ err: error, retryMs }, 'läsmodellen kunde inte läsas in: försöker igen');
        await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
        retryMs = Math.min(retryMs * 2, RELOAD_RETRY_MAX_MS);
      }
    }
  }

  /**
   * Announces a barrier covering every write finished so far (one at a time: writes finished
   * while one is on its way get the next). Returns the barrier's number when `force`d out now.
   */
  private sendBarrier(force = false): number | null {
    if (this.sendingBarrier && !force) {
      this.barrierAgain = true;
      return null;
    }
    this.sendingBarrier = true;
    const seq = ++this.barrierSeq;
    this.barrierCovers.set(seq, { writes: this.writes, sentAt: performance.now() });
    announceBarrier(this.options.db, this.processId, seq)
      .catch((error: unknown) => {
        this.barrierCovers.delete(seq);
        this.options.log?.warn({ err: error }, 'läsmodellens spärr kunde inte skickas');
      })
      .finally(() => {
        this.sendingBarrier = false;
        if (this.barrierAgain) {
          this.barrierAgain = false;
          this.sendBarrier();
        }
      });
    return seq;
  }

  private barrierReturned(seq: number): void {
    for (const [sent, covers] of this.barrierCovers) {
      if (sent > seq) break;
      this.coveredWrites = Math.max(this.coveredWrites, covers.writes);
      this.confirmedAt = Math.max(this.confirmedAt, covers.sentAt);
      this.barrierCovers.delete(sent);
    }
    if (this.readyAtBarrier !== null && seq >= this.readyAtBarrier) {
      this.readyAtBarrier = null;
      this.setReady(true);
    }
    this.release();
  }

  private fresh(): boolean {
    return performance.now() - this.confirmedAt <= FRESH_MS;
  }

  private setReady(ready: boolean): void {
    this.ready = ready;
    readModelReady.set(ready ? 1 : 0);
    if (ready) this.release();
  }

  private release(): void {
    if (!this.ready) return;
    for (const waiter of this.waiters) {
      if (waiter.writes > this.coveredWrites || !this.fresh()) continue;
      clearTimeout(waiter.timer);
      this.waiters.delete(waiter);
      waiter.resolve();
    }
  }
}
