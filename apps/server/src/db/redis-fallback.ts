import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/** After Redis fails a command, counting goes to the database for this long before Redis is tried again. */
export const REDIS_RETRY_AFTER_MS = 5000;
/** How long one Redis command may take before it counts as failed. */
const REDIS_TIMEOUT_MS = 500;
/** How long a connection attempt may take; the server waits twice this at start for a Redis that is up. */
const REDIS_CONNECT_TIMEOUT_MS = 1000;

export interface RedisWithFallback {
  redis: Redis;
  /**
   * `viaRedis` while Redis answers; `viaDatabase` while it does not (decision 022): the limits
   * fall back to the database counters, so a Redis outage neither fails a request nor lifts a
   * limit, and no request waits more than one command timeout for a Redis that has gone away.
   */
  run<T>(viaRedis: (redis: Redis) => Promise<T>, viaDatabase: () => Promise<T>): Promise<T>;
  /** Resolves when Redis is first ready, or after a connect timeout: the server then starts on the database. */
  connected(): Promise<void>;
  close(): void;
}

export function redisWithFallback(url: string, log: FastifyBaseLogger): RedisWithFallback {
  const redis = new Redis(url, {
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_TIMEOUT_MS,
    // While Redis is away a command fails at once instead of queueing behind the reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Reconnects for as long as the server runs, at most every two seconds.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let failingSince: number | undefined;
  let retryAt = 0;

  const failed = (error: unknown) => {
    retryAt = Date.now() + REDIS_RETRY_AFTER_MS;
    if (failingSince === undefined) {
      failingSince = Date.now();
      log.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'Redis svarar inte: gränserna räknas i databasen tills vidare',
      );
    }
  };
  // ioredis reports a lost connection here (and reconnects by itself); commands report their own.
  redis.on('error', (error: unknown) => {
    if (failingSince === undefined) failed(error);
  });

  return {
    redis,
    async run(viaRedis, viaDatabase) {
      if (redis.status !== 'ready' || Date.now() < retryAt) return viaDatabase();
      let result;
      try {
        result = await viaRedis(redis);
      } catch (error) {
        failed(error);
        return viaDatabase();
      }
      if (failingSince !== undefined) {
        log.info({ downMs: Date.now() - failingSince }, 'Redis svarar igen: gränserna räknas i Redis');
        failingSince = undefined;
      }
      return result;
    },
    connected: () =>
      new Promise<void>((resolve) => {
        if (redis.status === 'ready') return resolve();
        const timer = setTimeout(resolve, REDIS_CONNECT_TIMEOUT_MS * 2);
        redis.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      }),
    close() {
      redis.disconnect();
    },
  };
}
