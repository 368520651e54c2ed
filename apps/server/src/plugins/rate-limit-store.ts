import { lt, sql } from 'drizzle-orm';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../db/client.js';
import { rateLimits } from '../db/schema.js';

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

/**
 * A @fastify/rate-limit store over the `rate_limits` table: every server process on one
 * PostgreSQL counts the same attempts (DESIGN D11), and a restart does not hand an attacker a
 * fresh window. Each route's limit gets its own key space through `child`.
 */
export function databaseRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  let counted = 0;

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly scope = '',
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      countAttempt(db, this.scope + key, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
      if (++counted % SWEEP_EVERY === 0) {
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
