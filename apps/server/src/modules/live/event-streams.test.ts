import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventStreams, FIGURES_EVERY_MS } from './event-streams.js';

/** A change of the group's figures to version `version` (the sums do not matter here). */
const figuresOf = (groupId: number, version: number) =>
  ({ kind: 'figures', groupId, version, figures: { salesOre: 0, commissionOre: 0, ordersCount: 0 } }) as const;

/** EventStreams with no database: every stream may see group 7 and its membership 70. */
const streamsWith = (options: { version?: () => Promise<number> } = {}) =>
  new EventStreams({
    heartbeatMs: 60_000,
    loadAccess: async () => undefined,
    loadAudience: async () => ({ groupIds: [], membershipIds: [] }),
    ...options,
  });

/** One stream of `streams` on a real socket (a bare Node server and client), open once its first line has come. */
async function openStream(streams: EventStreams) {
  let received = '';
  const server = http.createServer((_request, response) =>
    streams.open(
      response,
      { userId: 1, sessionId: null, tokenVersion: 0, isSuperadmin: false, endsAt: new Date(Date.now() + 3_600_000) },
      { groupIds: [7], membershipIds: [70] },
      undefined,
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = await new Promise<http.ClientRequest>((resolve) => {
    const request = http.get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, (response) => {
      response.setEncoding('utf8');
      response.on('data', (text: string) => (received += text));
      resolve(request);
    });
  });
  /** Resolves once the stream has received `text` (after everything before it). */
  const arrival = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => (received.includes(text) ? resolve() : setImmediate(check));
      check();
    });
  await arrival('retry: 3000\n\n');
  return {
    received: () => received,
    arrival,
    async close() {
      streams.closeAll();
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * EventStreams on real sockets (a bare Node server and client), with only the clock faked: a
 * group's figures events, held and joined within FIGURES_EVERY_MS (decision 048).
 */
describe('a group’s figures events', () => {
  let streams: EventStreams;
  let stream: Awaited<ReturnType<typeof openStream>>;
  const arrival = (text: string) => stream.arrival(text);
  const figures = (version: number) => `event: figures\ndata: {"group_id":7,"version":${version}}\n\n`;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    streams = streamsWith();
    stream = await openStream(streams);
  });

  afterEach(async () => {
    await stream.close();
    vi.useRealTimers();
  });

  it('go at once when the group was quiet; those that follow within the time go as one, with the newest version', async () => {
    streams.handle(figuresOf(7, 1));
    await arrival(figures(1));
    streams.handle(figuresOf(7, 2));
    streams.handle(figuresOf(7, 3));
    // A sale is never held: its toast is the seller's own.
    streams.handle({ kind: 'sale', groupId: 7, membershipId: 70, amountOre: 24_900 });
    await arrival('event: sale\ndata: {"group_id":7,"amount":249}\n\n');
    expect(stream.received()).not.toContain('"version":3');

    vi.advanceTimersByTime(FIGURES_EVERY_MS);
    await arrival(figures(3));
    expect(stream.received()).not.toContain('"version":2');

    // Quiet for the whole time again: the next goes at once.
    vi.advanceTimersByTime(FIGURES_EVERY_MS);
    streams.handle(figuresOf(7, 4));
    await arrival(figures(4));
    expect(stream.received().match(/event: figures/g)).toHaveLength(3);
  });

  it('of another group are not held by this one', async () => {
    streams.handle(figuresOf(8, 1));
    streams.handle(figuresOf(7, 5));
    await arrival(figures(5));
    expect(stream.received()).not.toContain('"group_id":8');
  });
});

describe('the data version of an event (decision 057)', () => {
  it('is the one the feed answers after the change arrived, and events keep their order', async () => {
    const answers: ((version: number) => void)[] = [];
    const streams = streamsWith({ version: () => new Promise<number>((resolve) => answers.push(resolve)) });
    const { arrival, received, close } = await openStream(streams);
    try {
      streams.handle(figuresOf(7, 1));
      streams.handle({ kind: 'sale', groupId: 7, membershipId: 70, amountOre: 24_900 });
      expect(answers).toHaveLength(2);
      answers[0]!(500);
      answers[1]!(510);
      await arrival('event: sale\ndata: {"group_id":7,"amount":249,"data_version":510}\n\n');
      expect(received()).toContain('event: figures\ndata: {"group_id":7,"version":1,"data_version":500}\n\n');
      expect(received().indexOf('event: figures')).toBeLessThan(received().indexOf('event: sale'));
    } finally {
      await close();
    }
  });
});
