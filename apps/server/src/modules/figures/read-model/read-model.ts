/**
 * The seller calls' read model (issue 23, decision 047): every user, membership and group with
 * their figures, held in this process and kept exact by the database's change feed. It is
 * loaded at start and again after every `resync` (the listening connection came back, or the
 * database did); between those, the feed's changes are applied in the order their transactions
 * committed. Figures arrive with their values; any other change names a row, read again.
 *
 * Freshness is one number and one clock (decision 057): `applied`, the data version of the last
 * barrier the queue reached (db/change-feed.ts: every change committed before that version is
 * applied), and when this process's last barrier to come back was sent. A call is answered when
 * - the model is loaded and listening (while it loads, or its feed is lost, a call waits);
 * - it holds the version the call asks for: the one its client presents (a write's answer carried
 *   it, on whichever worker), else the highest this process's own write answers carried, so that
 *   any client reads its own writes within one process. A version ahead of the model asks the feed
 *   for a barrier; the version of a barrier sent after the call arrived is enough, whatever was asked;
 * - a barrier of this process sent at most FRESH_MS ago has come back (the feed sends one every
 *   200 ms while calls come, and one for the first call after a quiet spell): a process whose line
 *   to the database went silent stops answering within a second.
 * Otherwise it waits, at most `waitMs`, then 503.
 */
import type { ChangeFeed, FeedChange } from '../../../db/change-feed.js';
import type { Db } from '../../../db/client.js';
import { databaseUnavailable } from '../../../errors.js';
import { readModelLoads, readModelReady } from '../../../lib/metrics.js';
import { ReadModelState, type MemberRow, type SellerViewRow } from './read-model-state.js';
import { readNamedRows, readSnapshot } from './rows.js';

export type { MemberRow, SellerViewRow } from './read-model-state.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The seller calls' read model: loaded at start (plugins/read-model.ts), kept exact by the change feed. */
    readModel: ReadModel;
  }
}

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
  version: number;
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
const RELOAD_RETRY_FIRST_MS = 100;
const RELOAD_RETRY_MAX_MS = 5_000;
/**
 * How long a call waits for the model to be current before it is answered 503: inside the two
 * seconds a seller call is answered within during an outage (issue 34 point 3), and longer than
 * FRESH_MS, so a barrier that is merely late (a busy machine) is waited for.
 */
export const READ_MODEL_WAIT_MS = 1_500;

export class ReadModel {
  private readonly state = new ReadModelState();
  private queue: Queued[] = [];
  private draining = false;
  private ready = false;
  private stopped = false;
  private unsubscribe: () => void = () => {};

  /** The data version held: the last barrier the queue reached since the last load (0: none yet). */
  private applied = 0;
  /** After a load, the version whose barrier makes the model ready (the changes queued behind the load applied by then). */
  private readyAt: number | null = null;
  /** When this process's last barrier to come back was sent (performance.now()). */
  private confirmedAt = -Infinity;
  /** The highest version this process's write answers carried. */
  private written = 0;
  /** Renewed by every resync and loss of the feed: a load is good only if none came after it began. */
  private generation = 0;
  private readonly waiters = new Set<Waiter>();

  constructor(
    private readonly options: {
      db: Db;
      feed: Pick<ChangeFeed, 'subscribe' | 'version' | 'keepWarm'>;
      log?: Log;
      /** How long a call waits for the model to be current before it is answered 503. */
      waitMs?: number;
    },
  ) {}

  /** Subscribes to the feed and loads everything; resolves once the model is current, however long that takes. */
  async start(): Promise<void> {
    this.unsubscribe = this.options.feed.subscribe((change) => this.enqueue({ change }));
    this.enqueue({ change: { kind: 'resync' } });
    // However long the first load takes at the data's scale: the server listens after it.
    await this.current(0, null);
  }

  stop(): void {
    this.stopped = true;
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

  /** Whether a barrier of this process sent at most FRESH_MS ago has come back: a call is answered without waiting for one. */
  get isFresh(): boolean {
    return performance.now() - this.confirmedAt <= FRESH_MS;
  }

  /** A write of this process answered with `version`: this process's reads from now on hold it. */
  wrote(version: number): void {
    if (version > this.written) this.written = version;
  }

  /**
   * Resolves once the model is loaded, listening, fresh and holds `version` (by default the
   * highest this process's writes answered with); undefined when it already does (the usual
   * case: no await). After `waitMs` (null: no limit) it fails with 503.
   */
  current(version = this.written, waitMs: number | null = this.options.waitMs ?? READ_MODEL_WAIT_MS): Promise<void> | undefined {
    this.options.feed.keepWarm();
    if (this.ready && this.applied >= version && this.isFresh) return undefined;
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { version, resolve, reject };
      if (waitMs !== null) {
        waiter.timer = setTimeout(() => {
          this.waiters.delete(waiter);
          reject(databaseUnavailable());
        }, waitMs);
        waiter.timer.unref();
      }
      this.waiters.add(waiter);
      if (version > this.applied) {
        // Whatever the caller knows of had committed before it called: a barrier sent now covers it,
        // also when what it presents is higher (made up, or of another database).
        this.options.feed.version().then(
          (now) => {
            if (now < waiter.version) waiter.version = now;
            this.release();
          },
          // The feed stopped: so has the model, which has refused its waiters.
          () => {},
        );
      } else if (!this.isFresh) {
        // The first call after a quiet spell: a barrier now confirms the model (barrierReached releases it).
        this.options.feed.version().catch(() => {});
      }
    });
  }

  /**
   * The user's seller view, as current as `current()` makes it. At hand (no promise) when the model is current
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
      // What the barriers before this said held of a model now superseded.
      this.applied = 0;
      this.readyAt = null;
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
            this.barrierReached(change.version, change.sentAt);
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
      const generation = this.generation;
      const started = performance.now();
      try {
        const snapshot = await readSnapshot(this.options.db);
        if (this.stopped || generation !== this.generation) return;
        this.state.replaceAll(snapshot);
        readModelLoads.inc();
        this.options.log?.info({ ...this.state.size, ms: Math.round(performance.now() - started) }, 'läsmodellen är inläst');
        // Changes already queued behind the load may predate it: ready once a barrier sent now is
        // reached. The feed sends it however long its line takes to take one (never awaited here:
        // the queue goes on meanwhile, and may reach the barrier before its version is known).
        this.options.feed.version().then(
          (version) => {
            if (this.stopped || generation !== this.generation) return;
            this.readyAt = version;
            this.checkReady();
          },
          () => {},
        );
        return;
      } catch (error) {
        this.options.log?.warn({ err: error, retryMs }, 'läsmodellen kunde inte läsas in: försöker igen');
        await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
        retryMs = Math.min(retryMs * 2, RELOAD_RETRY_MAX_MS);
      }
    }
  }

  private barrierReached(version: number, sentAt: number | undefined): void {
    if (version > this.applied) this.applied = version;
    if (sentAt !== undefined && sentAt > this.confirmedAt) this.confirmedAt = sentAt;
    this.checkReady();
    this.release();
  }

  private checkReady(): void {
    if (this.readyAt !== null && this.applied >= this.readyAt) {
      this.readyAt = null;
      this.setReady(true);
    }
  }

  private setReady(ready: boolean): void {
    this.ready = ready;
    readModelReady.set(ready ? 1 : 0);
    if (ready) this.release();
  }

  private release(): void {
    if (!this.ready) return;
    for (const waiter of this.waiters) {
      if (waiter.version > this.applied || !this.isFresh) continue;
      clearTimeout(waiter.timer);
      this.waiters.delete(waiter);
      waiter.resolve();
    }
  }
}
