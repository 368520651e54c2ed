/**
 * The readers of bench/streams.ts's event streams, in a process of their own that the bench starts
 * at the lowest priority (nice 19). Real readers are phones elsewhere: holding 5,000 sockets and
 * parsing every frame in the bench process took CPU and event-loop time from the load generator
 * and, on a machine of two cores, from the server under test.
 *
 * It opens one stream per seller it is given (a ticket, then GET /api/events on a socket of its
 * own), notes when each `figures` event reaches each stream, and answers the bench over IPC. Times
 * are CLOCK_MONOTONIC (process.hrtime), one clock for every process of the machine, so the bench
 * compares them with its own webhook's 200.
 */
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface ReaderStream {
  userId: number;
  groupId: number;
  /** An access token of the seller's, for the ticket. */
  token: string;
}

export type ReadersRequest =
  | { id: number; type: 'open'; url: string; streams: ReaderStream[] }
  /** Remember the versions the group's streams have seen so far. */
  | { id: number; type: 'mark'; groupId: number }
  /** For each stream of the group, when the first version not seen at the mark arrived; null: none did. */
  | { id: number; type: 'collect'; groupId: number }
  /** Figure events received, CPU used and event-loop delay since the last `usage`. */
  | { id: number; type: 'usage' };

export type ReadersAnswer =
  | { id: number; opened: number }
  | { id: number; times: (number | null)[] }
  | { id: number; figureFrames: number; cpuMs: number; lagP99: number; lagMax: number }
  | { id: number; error: string };

/** Milliseconds on CLOCK_MONOTONIC, the same clock as bench/streams.ts's. */
const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

interface Stream {
  groupId: number;
  /** version → when it arrived. */
  times: Map<number, number>;
}

const byGroup = new Map<number, Stream[]>();
const marks = new Map<number, Set<number>>();
const requests: http.ClientRequest[] = [];
let figureFrames = 0;
let cpu = process.cpuUsage();
const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();

async function openStream(url: string, given: ReaderStream): Promise<void> {
  const answer = await fetch(`${url}/api/events/ticket`, { method: 'POST', headers: { authorization: `Bearer ${given.token}` } });
  if (!answer.ok) throw new Error(`biljett ${answer.status}`);
  const { ticket } = (await answer.json()) as { ticket: string };
  const stream: Stream = { groupId: given.groupId, times: new Map() };
  await new Promise<void>((resolve, reject) => {
    const request = http.get(`${url}/api/events?ticket=${encodeURIComponent(ticket)}`, { agent: false }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`ström ${response.statusCode}`));
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const at = monotonicMs();
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (!block.includes('event: figures')) continue;
          figureFrames++;
          stream.times.set(Number(/"version":(\d+)/.exec(block)?.[1]), at);
        }
      });
      resolve();
    });
    request.on('error', reject);
    requests.push(request);
  });
  if (!byGroup.has(given.groupId)) byGroup.set(given.groupId, []);
  byGroup.get(given.groupId)!.push(stream);
}

async function answer(request: ReadersRequest): Promise<ReadersAnswer> {
  switch (request.type) {
    case 'open': {
      // 50 at a time, as a crowd of phones would, each with a ticket of its own.
      let next = 0;
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          while (next < request.streams.length) await openStream(request.url, request.streams[next++]!);
        }),
      );
      return { id: request.id, opened: [...byGroup.values()].reduce((sum, streams) => sum + streams.length, 0) };
    }
    case 'mark': {
      const seen = new Set<number>();
      for (const stream of byGroup.get(request.groupId) ?? []) for (const version of stream.times.keys()) seen.add(version);
      marks.set(request.groupId, seen);
      return { id: request.id, times: [] };
    }
    case 'collect': {
      const seen = marks.get(request.groupId) ?? new Set();
      const times = (byGroup.get(request.groupId) ?? []).map((stream) => {
        const fresh = [...stream.times].filter(([version]) => !seen.has(version)).map(([, at]) => at);
        return fresh.length ? Math.min(...fresh) : null;
      });
      return { id: request.id, times };
    }
    case 'usage': {
      const used = process.cpuUsage(cpu);
      cpu = process.cpuUsage();
      const figures = { figureFrames, cpuMs: (used.user + used.system) / 1000, lagP99: lag.percentile(99) / 1e6, lagMax: lag.max / 1e6 };
      figureFrames = 0;
      lag.reset();
      return { id: request.id, ...figures };
    }
  }
}

process.on('message', (message: ReadersRequest) => {
  answer(message).then(
    (result) => process.send!(result),
    (error: Error) => process.send!({ id: message.id, error: error.message }),
  );
});
// The bench ends (or fails): so do the readers, and their sockets with them.
process.on('disconnect', () => {
  for (const request of requests) request.destroy();
  process.exit(0);
});
