import { lt, sql } from 'drizzle-orm';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from './client.js';
import { rateLimits } from './schema.js';
import type { RedisWithFallback } from './redis-fallback.js';

/** Expired windows are swept every this many counts, so the table stays as small as its live windows. */
const SWEEP_EVERY = 500;

/**
 * Counts one attempt under `key` in a fixed window of `windowMs` and answers how many the window
 * holds and how long it has left. One upsert, so concurrent processes never lose a count.
 */
export async function countAttempt(db: Db, key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
  const windowEnd = sql`now() + ${windowMs}::double precision * interval '1 millisecond'`;
  const expired = sql`${rateLimits.resetsAt} <= now()`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, hits: 1, resetsAt: windowEnd })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`case when ${expired} then 1 else ${rateLimits.hits} + 1 end`,
        resetsAt: sql`case when ${expired} then excluded.resets_at else ${rateLimits.resetsAt} end`,
      },
    })
    .returning({
      hits: rateLimits.hits,
      ttl: sql<number>`greatest(0, ceil(extract(epoch from (${rateLimits.resetsAt} - now())) * 1000))::integer`,
    });
  return { current: row!.hits, ttl: Number(row!.ttl) };
}

/** The same fixed window in Redis: the expiry is set by the window's first count only. */
const REDIS_COUNT =
  "local current = redis.call('incr', KEYS[1]) if current == 1 then redis.call('pexpire', KEYS[1], ARGV[1]) end return {current, redis.call('pttl', KEYS[1])}";

/**
 * A @fastify/rate-limit store over the `rate_limits` table: every server process on one
 * PostgreSQL counts the same attempts (DESIGN D11), and a restart does not hand an attacker a
 * fresh window. Each route's limit gets its own key space through `child`. With `redis`
 * (REDIS_URL) the counts are kept in Redis, and in the table while Redis is away (decision 022).
 */
export function databaseRateLimitStore(db: Db, redis?: { fallback: RedisWithFallback; nameSpace: string }): FastifyRateLimitStoreCtor {
  const count = (key: string, windowMs: number) =>
    redis
      ? redis.fallback.run(
          async (client) => {
            const [current, ttl] = (await client.eval(REDIS_COUNT, 1, redis.nameSpace + key, windowMs)) as [number, number];
            return { current: Number(current), ttl: Math.max(0, Number(ttl)) };
          },
          () => countAttempt(db, key, windowMs),
        )
      : countAttempt(db, key, windowMs);

  let counted = 0;

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly scope = '',
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      count(this.scope + key, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
      if (!redis && ++counted % SWEEP_EVERY === 0) {
        // Only housekeeping: a failed sweep is retried at the next one.
        db.delete(rateLimits)
          .where(lt(rateLimits.resetsAt, sql`now()`))
          .catch(() => {});
      }
    }

    child(settings: Parameters<FastifyRateLimitStore['child']>[0]) {
      // The plugin passes a route's merged limit settings with the route under `routeInfo` (its
      // own RedisStore reads it the same way); limits made with createRateLimit have no route.
      const route = (settings as unknown as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      return new DatabaseRateLimitStore(settings, route?.url ? `${String(route.method)} ${route.url}|` : '');
    }
  }
  return DatabaseRateLimitStore;
}
