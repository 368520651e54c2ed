import { and, eq, gt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from './client.js';
import { rateLimits } from './schema.js';
import { countAttempt } from './rate-limit-store.js';
import type { RedisWithFallback } from './redis-fallback.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counters for limits that count only failed attempts (sign-in); set up by the security plugin. */
    attemptCounters: AttemptCounters;
  }
}

export interface AttemptCount {
  /** Attempts in the key's current window, this one included. */
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

/**
 * Counters of attempts that only count when they fail (decision 012): an attempt is added before
 * its outcome is known, so parallel guesses cannot outrun the count, and taken back when it turns
 * out not to count. Shared by every server process: the `rate_limits` table, or Redis.
 */
export interface AttemptCounters {
  add(keys: { key: string; windowMs: number }[]): Promise<AttemptCount[]>;
  takeBack(keys: string[]): Promise<void>;
}

const PREFIX = 'attempt|';

export function databaseAttemptCounters(db: Db): AttemptCounters {
  return {
    add: (keys) => Promise.all(keys.map(({ key, windowMs }) => countAttempt(db, PREFIX + key, windowMs))),
    // One statement per key: each locks one row, so concurrent take-backs (a burst refused at
    // once) cannot wait for each other in a cycle. One statement over all keys locked them in
    // whatever order its scan met them, and two such statements deadlocked (a 500 in CI).
    takeBack: async (keys) => {
      await Promise.all(
        keys.map((key) =>
          db
            .update(rateLimits)
            .set({ hits: sql`${rateLimits.hits} - 1` })
            .where(and(eq(rateLimits.key, PREFIX + key), gt(rateLimits.hits, 0), gt(rateLimits.resetsAt, sql`now()`))),
        ),
      );
    },
  };
}

/** Takes one back only from a window that still exists: a missing key would become -1 forever. */
const TAKE_BACK = "if redis.call('exists', KEYS[1]) == 1 then return redis.call('decr', KEYS[1]) end return 0";

export function redisAttemptCounters(redis: Redis, nameSpace: string): AttemptCounters {
  return {
    async add(keys) {
      const batch = redis.multi();
      for (const { key, windowMs } of keys) {
        // A fixed window: the expiry is set by the first attempt only.
        batch
          .set(nameSpace + key, 0, 'PX', windowMs, 'NX')
          .incr(nameSpace + key)
          .pttl(nameSpace + key);
      }
      const results = (await batch.exec()) ?? [];
      return keys.map((_key, index) => {
        const [incrError, current] = results[index * 3 + 1] ?? [new Error('no answer')];
        const [, ttl] = results[index * 3 + 2] ?? [];
        if (incrError) throw incrError;
        return { current: Number(current), ttl: Math.max(0, Number(ttl)) };
      });
    },
    async takeBack(keys) {
      await Promise.all(keys.map((key) => redis.eval(TAKE_BACK, 1, nameSpace + key)));
    },
  };
}

/**
 * Counters in Redis while it answers, in the `rate_limits` table while it does not (decision
 * 022). An attempt added in one and taken back in the other is not taken back: the count errs
 * towards the limit, never past it.
 */
export function fallbackAttemptCounters(fallback: RedisWithFallback, nameSpace: string, db: Db): AttemptCounters {
  const inDatabase = databaseAttemptCounters(db);
  const inRedis = redisAttemptCounters(fallback.redis, nameSpace);
  return {
    add: (keys) =>
      fallback.run(
        () => inRedis.add(keys),
        () => inDatabase.add(keys),
      ),
    takeBack: (keys) =>
      fallback.run(
        () => inRedis.takeBack(keys),
        () => inDatabase.takeBack(keys),
      ),
  };
}
