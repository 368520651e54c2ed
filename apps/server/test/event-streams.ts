/**
 * A Server-Sent-Events reader for tests: opens `GET /api/events` with a fresh ticket and collects
 * what arrives (events with their ids, heartbeat comments), over real HTTP.
 */
export interface StreamEvent {
  id?: string;
  event: string;
  data: unknown;
  at: number;
}

export interface OpenedStream {
  status: number;
  events: StreamEvent[];
  comments: number;
  ended: Promise<void>;
  isEnded(): boolean;
  /** Resolves with the first event (already received or to come) that matches, or rejects after timeoutMs. */
  next(matches: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  close(): void;
}

export async function eventTicket(baseUrl: string, token: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/events/ticket`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`ingen biljett: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { ticket: string }).ticket;
}

export async function openEventStream(
  baseUrl: string,
  options: { token?: string; ticket?: string; lastEventId?: string; lastEventIdInQuery?: boolean },
): Promise<OpenedStream> {
  const ticket = options.ticket ?? (await eventTicket(baseUrl, options.token!));
  const abort = new AbortController();
  const query = new URLSearchParams({ ticket });
  if (options.lastEventId && options.lastEventIdInQuery) query.set('last_event_id', options.lastEventId);
  const response = await fetch(`${baseUrl}/api/events?${query}`, {
    signal: abort.signal,
    headers: options.lastEventId && !options.lastEventIdInQuery ? { 'last-event-id': options.lastEventId } : {},
  });
  const events: StreamEvent[] = [];
  const waiters: { matches(event: StreamEvent): boolean; resolve(event: StreamEvent): void }[] = [];
  let ended = false;
  const stream: OpenedStream = {
    status: response.status,
    events,
    comments: 0,
    ended: Promise.resolve(),
    isEnded: () => ended,
    next(matches, timeoutMs = 2000) {
      const found = events.find(matches);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`ingen händelse inom ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          matches,
          resolve: (event) => {
            clearTimeout(timer);
            resolve(event);
          },
        });
      });
    },
    close: () => abort.abort(),
  };
  if (response.status !== 200 || !response.body) {
    ended = true;
    return stream;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  stream.ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments++;
            const colon = line.indexOf(':');
            if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
          }
          if (!fields.event && !fields.data) continue;
          const event: StreamEvent = {
            id: fields.id,
            event: fields.event ?? 'message',
            data: JSON.parse(fields.data ?? 'null'),
            at: Date.now(),
          };
          events.push(event);
          for (const waiter of waiters.filter((w) => w.matches(event))) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(event);
          }
        }
      }
    } catch {
      // aborted by close()
    } finally {
      ended = true;
    }
  })();
  return stream;
}
