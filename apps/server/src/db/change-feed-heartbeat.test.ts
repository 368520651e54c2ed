import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MS, WARM_MS, startChangeFeed } from './change-feed.js';
import type { Database } from './client.js';
import { DatabaseAvailability } from './availability.js';

/** A feed on a database that answers every barrier at once; the barriers it was sent, counted. */
async function feedOnQuietDatabase() {
  const sent = { barriers: 0 };
  const database: Pick<Database, 'listen' | 'availability'> = {
    availability: new DatabaseAvailability(),
    listen: async () => ({
      async query() {
        sent.barriers += 1;
        return [{ version: String(sent.barriers) }];
      },
      async stop() {},
    }),
  };
  return { feed: await startChangeFeed(database), sent };
}

describe('the change feed’s heartbeat', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('sends no barrier while nobody reads, and sends one when asked', async () => {
    const { feed, sent } = await feedOnQuietDatabase();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent.barriers).toBe(0);
    expect(await feed.version()).toBe(1);
    await feed.stop();
  });

  it('beats every HEARTBEAT_MS while a reader keeps it warm, and stops WARM_MS after the last', async () => {
    const { feed, sent } = await feedOnQuietDatabase();
    feed.keepWarm();
    await vi.advanceTimersByTimeAsync(WARM_MS / 2);
    const halfway = sent.barriers;
    expect(halfway).toBeGreaterThanOrEqual(WARM_MS / 2 / HEARTBEAT_MS - 1);
    // Kept warm again half way: it beats on for WARM_MS from then.
    feed.keepWarm();
    await vi.advanceTimersByTimeAsync(WARM_MS);
    const ended = sent.barriers;
    expect(ended).toBeGreaterThanOrEqual(halfway + WARM_MS / HEARTBEAT_MS - 1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent.barriers).toBe(ended);
    await feed.stop();
  });
});
