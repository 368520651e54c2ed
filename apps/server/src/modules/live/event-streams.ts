/**
 * The open live-figure streams of this process and what each may receive (issue 20 §4). Every
 * change of the feed is turned into one Server-Sent-Events frame, written to the streams of its
 * audience, found through indexes (by group, by membership, the superadmins), never by scanning:
 *
 * - `figures` and `payout`: the streams of the group's members (sellers and group admins) and of
 *   every superadmin (the admin pages); a group's `figures` at most once per FIGURES_EVERY_MS, the
 *   first of a quiet group at once, those that come within that time as one, with the newest
 *   version, when it has passed (decision 048);
 * - `sale`: only the streams of the seller whose link sold (their membership);
 * - `resync`: every stream (the feed may have missed changes: refetch everything).
 *
 * `figures`, `payout` and `sale` carry `data_version` (decision 057): the version of a barrier the
 * change feed sent after the change arrived here, so a refetch that presents it, on whichever
 * worker it lands, is answered by a read model that has the change. An event waits that one
 * round trip on the listening connection (at most VERSION_WAIT_MS, then it goes without one).
 *
 * Events carry ids `<process>.<n>`. The last REPLAY_SIZE events stay here, so a client that comes
 * back (Last-Event-ID) to the same process gets what it missed that it may see; an id of another
 * process, or one older than what is kept, gets `resync`. A heartbeat comment keeps proxies from
 * closing a quiet stream. A stream ends when its access token would have expired, when its
 * session ends (the feed's `access` change: logout, password change, erasure), when one of its
 * memberships is removed or moved (the feed's `membership` change), when its reader falls too far
 * behind, and when the server shuts down.
 *
 * A frame is made once per change, as the bytes of one chunk of the chunked response, and written
 * to each stream's socket as it is (decision 048): for an event to a group's 100 streams, Node's
 * own per-write work for a chunked response (cork, chunk header, a writev of three pieces) was a
 * fifth of what each stream cost the process.
 */
import crypto from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { liveStreamsOpen } from '../../lib/metrics.js';
import { oreToSek } from '../../lib/money.js';
import type { FeedChange } from '../../db/change-feed.js';
import { grantHolds, type StreamGrant } from './event-tickets.js';

/** Events kept for resumption. */
export const REPLAY_SIZE = 2_000;
/**
 * A group's `figures` events are this far apart at least. Each is a write to every stream of the
 * group and a refetch by every page behind them; a busy group's pages lose nothing by refetching
 * twice a second (the web app gathers changes for 150 ms before it refetches anyway).
 */
export const FIGURES_EVERY_MS = 500;
/** How long an event waits for its data version before it goes without one. */
const VERSION_WAIT_MS = 1_000;
/** A reader this far behind (bytes queued on its socket) is cut off; it reconnects and resyncs. */
const SLOW_READER_BYTES = 256 * 1024;

/** Server-Sent-Events text as one chunk of the response's chunked transfer coding. */
const chunk = (text: string): Buffer => Buffer.from(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);
const HEARTBEAT = chunk(': \n\n');

export interface StreamAudience {
  groupIds: readonly number[];
  membershipIds: readonly number[];
}

interface OpenStream {
  grant: StreamGrant;
  audience: StreamAudience;
  response: ServerResponse;
  ending: NodeJS.Timeout;
}

interface KeptEvent {
  seq: number;
  groupId: number | null;
  membershipId: number | null;
  frame: string;
}

/** The user's row as far as an open stream depends on it; undefined when the user is gone or erased. */
export type AccessLoader = (
  userId: number,
) => Promise<{ tokenVersion: number; endedSessions: { sid: string }[]; isSuperadmin: boolean } | undefined>;

const addTo = <K>(index: Map<K, Set<OpenStream>>, key: K, stream: OpenStream) => {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(stream);
};
const removeFrom = <K>(index: Map<K, Set<OpenStream>>, key: K, stream: OpenStream) => {
  const set = index.get(key);
  if (!set) return;
  set.delete(stream);
  if (set.size === 0) index.delete(key);
};

/** The groups and memberships a user's stream may hear of, as the database has them now. */
export type AudienceLoader = (userId: number) => Promise<StreamAudience>;

const sameMembers = (a: readonly number[], b: readonly number[]) => {
  const set = new Set(b);
  return a.length === set.size && a.every((id) => set.has(id));
};

export class EventStreams {
  /** This process's prefix of event ids: an id from another process (or an earlier run) is not resumable here. */
  readonly processId = crypto.randomBytes(4).toString('hex');
  private seq = 0;
  /** Events from this sequence number on are all kept (a resync or the buffer's size moves it). */
  private resumableFrom = 1;
  private readonly kept: KeptEvent[] = [];
  private readonly byGroup = new Map<number, Set<OpenStream>>();
  private readonly byMembership = new Map<number, Set<OpenStream>>();
  private readonly byUser = new Map<number, Set<OpenStream>>();
  private readonly superadmins = new Set<OpenStream>();
  private readonly all = new Set<OpenStream>();
  /** Groups whose last `figures` event went less than FIGURES_EVERY_MS ago, with the newest version held since. */
  private readonly figuresHeld = new Map<number, { version: number | undefined; timer: NodeJS.Timeout }>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly options: {
      heartbeatMs: number;
      loadAccess: AccessLoader;
      loadAudience: AudienceLoader;
      /** The change feed's data version now (ChangeFeed.version); without it, events carry none. */
      version?: () => Promise<number>;
      log?: { warn(object: object, message: string): void };
    },
  ) {
    this.heartbeat = setInterval(() => {
      for (const stream of this.all) this.write(stream, HEARTBEAT);
    }, options.heartbeatMs);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.all.size;
  }

  /**
   * Starts the stream on `response` (already hijacked from the framework): headers, the events it
   * missed since `lastEventId` (or `resync`), then whatever comes.
   */
  open(response: ServerResponse, grant: StreamGrant, audience: StreamAudience, lastEventId: string | undefined): void {
    const stream: OpenStream = {
      grant,
      audience,
      response,
      ending: setTimeout(() => this.end(stream), Math.max(0, grant.endsAt.getTime() - Date.now())),
    };
    stream.ending.unref();
    this.all.add(stream);
    for (const groupId of audience.groupIds) addTo(this.byGroup, groupId, stream);
    for (const membershipId of audience.membershipIds) addTo(this.byMembership, membershipId, stream);
    addTo(this.byUser, grant.userId, stream);
    if (grant.isSuperadmin) this.superadmins.add(stream);
    liveStreamsOpen.inc();
    response.once('close', () => this.forget(stream));

    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // nginx would otherwise buffer the stream (docs/deploy.md).
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    // The headers go now, through Node; every frame after them straight to the socket (write).
    response.flushHeaders();
    // How long EventSource waits before it reconnects by itself (the web app reconnects with its own backoff).
    let opening = 'retry: 3000\n\n';
    if (lastEventId !== undefined) opening += this.missedSince(stream, lastEventId);
    this.write(stream, chunk(opening));
  }

  /** One change of the feed, to the streams that may see it. */
  handle(change: FeedChange): void {
    switch (change.kind) {
      case 'figures': {
        const held = this.figuresHeld.get(change.groupId);
        if (held) held.version = Math.max(held.version ?? 0, change.version);
        else this.sendFigures(change.groupId, change.version);
        return;
      }
      case 'payout':
        this.withVersion((version) => {
          const frame = this.keep('payout', { group_id: change.groupId, payout_id: change.payoutId, ...version }, change.groupId, null);
          this.toGroup(change.groupId, chunk(frame));
        });
        return;
      case 'sale':
        this.withVersion((version) => {
          const data = { group_id: change.groupId, amount: oreToSek(change.amountOre), ...version };
          const frame = chunk(this.keep('sale', data, null, change.membershipId));
          for (const stream of this.byMembership.get(change.membershipId) ?? []) this.write(stream, frame);
        });
        return;
      case 'resync': {
        // Whatever happened while the feed was away is not in the kept events: none is resumable.
        this.kept.length = 0;
        this.resumableFrom = this.seq + 1;
        const frame = chunk(this.frame(`${this.processId}.${this.seq}`, 'resync', { reason: 'feed_reconnected' }));
        for (const stream of this.all) this.write(stream, frame);
        return;
      }
      case 'access':
        void this.recheck(change.userId);
        return;
      case 'membership':
        // A member removed from a group (or moved) stops hearing of it at once (issue 28).
        void this.recheckAudience(change.membershipId);
        return;
      default:
        // The read model's changes (modules/read-model), and a lost feed: its resync follows.
        return;
    }
  }

  /** Ends every stream (shutdown). */
  closeAll(): void {
    clearInterval(this.heartbeat);
    for (const held of this.figuresHeld.values()) clearTimeout(held.timer);
    this.figuresHeld.clear();
    for (const stream of [...this.all]) this.end(stream);
  }

  /**
   * Calls `send` with the data version that covers a change that has arrived (as `{ data_version }`,
   * or nothing), in the order of the calls: the feed answers its callers in order.
   */
  private withVersion(send: (version: { data_version?: number }) => void) {
    const { version } = this.options;
    if (!version) {
      send({});
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    void Promise.race([
      version().catch(() => undefined),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), VERSION_WAIT_MS);
        timer.unref();
      }),
    ]).then((dataVersion) => {
      clearTimeout(timer);
      send(dataVersion === undefined ? {} : { data_version: dataVersion });
    });
  }

  /** The group's figures event now; what comes in the next FIGURES_EVERY_MS waits for its end. */
  private sendFigures(groupId: number, version: number) {
    this.withVersion((dataVersion) => {
      const frame = this.keep('figures', { group_id: groupId, version, ...dataVersion }, groupId, null);
      this.toGroup(groupId, chunk(frame));
    });
    const held: { version: number | undefined; timer: NodeJS.Timeout } = {
      version: undefined,
      timer: setTimeout(() => {
        this.figuresHeld.delete(groupId);
        if (held.version !== undefined) this.sendFigures(groupId, held.version);
      }, FIGURES_EVERY_MS),
    };
    held.timer.unref();
    this.figuresHeld.set(groupId, held);
  }

  private toGroup(groupId: number, frame: Buffer) {
    const members = this.byGroup.get(groupId);
    if (members) for (const stream of members) this.write(stream, frame);
    for (const stream of this.superadmins) if (!members?.has(stream)) this.write(stream, frame);
  }

  private mayReceive(stream: OpenStream, event: KeptEvent): boolean {
    if (event.membershipId !== null) return stream.audience.membershipIds.includes(event.membershipId);
    return event.groupId !== null && (stream.grant.isSuperadmin || stream.audience.groupIds.includes(event.groupId));
  }

  private missedSince(stream: OpenStream, lastEventId: string): string {
    const [processId, seqText] = lastEventId.split('.');
    const last = Number(seqText);
    const resumable = processId === this.processId && Number.isInteger(last) && last >= this.resumableFrom - 1 && last <= this.seq;
    if (!resumable) return this.frame(`${this.processId}.${this.seq}`, 'resync', { reason: 'unknown_last_event' });
    return this.kept
      .filter((event) => event.seq > last && this.mayReceive(stream, event))
      .map((event) => event.frame)
      .join('');
  }

  private keep(event: string, data: object, groupId: number | null, membershipId: number | null): string {
    const seq = ++this.seq;
    const frame = this.frame(`${this.processId}.${seq}`, event, data);
    this.kept.push({ seq, groupId, membershipId, frame });
    if (this.kept.length > REPLAY_SIZE) {
      this.kept.shift();
      this.resumableFrom = this.kept[0]!.seq;
    }
    return frame;
  }

  private frame(id: string, event: string, data: object): string {
    return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  }

  /** `frame`: a chunk (chunk()); what the socket has queued counts in the response's writableLength. */
  private write(stream: OpenStream, frame: Buffer) {
    const { response } = stream;
    if (response.destroyed || response.writableEnded || !response.socket) return;
    if (response.writableLength > SLOW_READER_BYTES) {
      this.end(stream);
      return;
    }
    response.socket.write(frame);
  }

  /** A user's sessions or rights changed: their streams that no longer hold end (the client asks for a new ticket). */
  private async recheck(userId: number) {
    const streams = this.byUser.get(userId);
    if (!streams?.size) return;
    let user: Awaited<ReturnType<AccessLoader>>;
    try {
      user = await this.options.loadAccess(userId);
    } catch (error) {
      // Unknown: end them; a client whose session holds gets a new ticket at once.
      this.options.log?.warn({ err: error }, 'kunde inte pröva händelseströmmarnas session: de avslutas');
      user = undefined;
    }
    for (const stream of [...streams]) {
      if (!user || !grantHolds(stream.grant, user) || user.isSuperadmin !== stream.grant.isSuperadmin) this.end(stream);
    }
  }

  /**
   * A membership some streams hear through changed: each of their users' memberships are read again,
   * and a stream whose groups or memberships are no longer the user's ends (the client asks for a
   * new ticket, and its new stream hears what the user now belongs to).
   */
  private async recheckAudience(membershipId: number) {
    const streams = this.byMembership.get(membershipId);
    if (!streams?.size) return;
    for (const userId of new Set([...streams].map((stream) => stream.grant.userId))) {
      let audience: StreamAudience | undefined;
      try {
        audience = await this.options.loadAudience(userId);
      } catch (error) {
        this.options.log?.warn({ err: error }, 'kunde inte pröva händelseströmmarnas grupper: de avslutas');
      }
      for (const stream of [...(this.byUser.get(userId) ?? [])]) {
        const holds =
          audience !== undefined &&
          sameMembers(stream.audience.groupIds, audience.groupIds) &&
          sameMembers(stream.audience.membershipIds, audience.membershipIds);
        if (!holds) this.end(stream);
      }
    }
  }

  private end(stream: OpenStream) {
    this.forget(stream);
    if (!stream.response.writableEnded) stream.response.end();
  }

  private forget(stream: OpenStream) {
    if (!this.all.delete(stream)) return;
    clearTimeout(stream.ending);
    for (const groupId of stream.audience.groupIds) removeFrom(this.byGroup, groupId, stream);
    for (const membershipId of stream.audience.membershipIds) removeFrom(this.byMembership, membershipId, stream);
    removeFrom(this.byUser, stream.grant.userId, stream);
    this.superadmins.delete(stream);
    liveStreamsOpen.dec();
  }
}
