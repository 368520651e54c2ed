import type { TFiguresEvent, TPayoutEvent, TSaleEvent } from '@saljportalen/contract';
import { noteDataVersion } from '@/lib/data-version';
import { fetchEventTicket } from './api/event-ticket';

export interface LiveHandlers {
  /** A group's figures changed (or one of its payouts): refetch what shows them. */
  onGroupChanged(groupId: number): void;
  /** The signed-in seller's own link sold (amount in kronor). */
  onSale?(amount: number): void;
  /** Changes may have been missed (a reconnect, the server's resync): refetch everything shown. */
  onResync(): void;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

const parse = <T>(event: MessageEvent): T | undefined => {
  try {
    return JSON.parse(event.data as string) as T;
  } catch {
    return undefined;
  }
};

/**
 * One live-figure stream (issue 20 §4): a fresh ticket, then an EventSource on
 * `/api/events?ticket=…`. When the stream fails or ends (the server ends it when the access token
 * would expire or the session ends), it is closed and opened again after a backoff with jitter,
 * with a new ticket and the last event id seen, and the page refetches. Stopped while the page is
 * hidden or nobody is signed in (the hook decides).
 */
export class LiveConnection {
  private source: EventSource | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryMs = FIRST_RETRY_MS;
  private lastEventId: string | undefined;
  private openedBefore = false;
  private running = false;

  constructor(private readonly handlers: LiveHandlers) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.connect();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.retryTimer);
    this.source?.close();
    this.source = undefined;
  }

  private async connect(): Promise<void> {
    let ticket: string;
    try {
      ticket = (await fetchEventTicket()).ticket;
    } catch {
      // A session that ended has signed out already (the API client); anything else is tried again.
      this.retryLater();
      return;
    }
    if (!this.running) return;
    const query = new URLSearchParams({ ticket });
    if (this.lastEventId) query.set('last_event_id', this.lastEventId);
    const source = new EventSource(`/api/events?${query}`);
    this.source = source;
    const seen = (event: MessageEvent) => {
      if (event.lastEventId) this.lastEventId = event.lastEventId;
    };
    source.addEventListener('open', () => {
      this.retryMs = FIRST_RETRY_MS;
      // Whatever changed while there was no stream is fetched again.
      if (this.openedBefore) this.handlers.onResync();
      this.openedBefore = true;
    });
    for (const name of ['figures', 'payout'] as const) {
      source.addEventListener(name, (event) => {
        seen(event);
        const data = parse<TFiguresEvent | TPayoutEvent>(event);
        if (!data) return;
        // The refetch that follows presents it: whichever server process answers has the change.
        noteDataVersion(data.data_version);
        this.handlers.onGroupChanged(data.group_id);
      });
    }
    source.addEventListener('sale', (event) => {
      seen(event);
      const data = parse<TSaleEvent>(event);
      if (!data) return;
      noteDataVersion(data.data_version);
      this.handlers.onSale?.(data.amount);
    });
    source.addEventListener('resync', (event) => {
      seen(event);
      this.handlers.onResync();
    });
    // The ticket is single-use: EventSource's own reconnect would be refused, so every failure or end
    // is a new connection of ours.
    source.addEventListener('error', () => {
      if (this.source !== source) return;
      source.close();
      this.source = undefined;
      this.retryLater();
    });
  }

  private retryLater(): void {
    if (!this.running) return;
    const wait = this.retryMs * (0.5 + Math.random() / 2);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.retryTimer = setTimeout(() => void this.connect(), wait);
  }
}
