/** Requests per second and latency at 50 concurrent connections (autocannon), many callers at once. */
import autocannon, { type Request, type Result } from 'autocannon';

export interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  failures: number;
}

export interface LoadTarget {
  /** Each request takes the next of these paths (one path: always the same). */
  paths: string[];
  /** Each request takes the next token (a different caller each time); none: no Authorization. */
  tokens?: string[];
}

export const CONNECTIONS = 50;

function rotating(target: LoadTarget) {
  let next = 0;
  return (request: Request): Request => {
    const i = next++;
    const token = target.tokens?.length ? target.tokens[i % target.tokens.length] : undefined;
    return {
      ...request,
      path: target.paths[i % target.paths.length],
      // As a phone's browser asks: compressed answers where the server has them.
      headers: { ...request.headers, 'accept-encoding': 'gzip, deflate, br, zstd', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    };
  };
}

const figuresOf = (result: Result, requestsPerSecond: number): LoadFigures => {
  // A call too slow to answer within the run completes nothing: its latency is unknown, not 0.
  const answered = result.requests.total > 0;
  return {
    requestsPerSecond,
    p50: answered ? result.latency.p50 : Infinity,
    p99: answered ? result.latency.p99 : Infinity,
    requests: result.requests.total,
    failures: result.errors + result.timeouts + result.non2xx + (answered ? 0 : 1),
  };
};

/**
 * A warm-up (JIT, pools, caches, the database's buffers), then the measured run. The warm-up
 * ends with one call of every caller: the measured run is the steady state, in which a phone's
 * token has been checked once and is known (lib/access-token.ts); `measureFirstCalls` measures
 * the other case.
 */
export async function measureLoad(
  url: string,
  target: LoadTarget,
  options: { seconds: number; warmupSeconds: number },
): Promise<LoadFigures> {
  const run = (duration: number) =>
    autocannon({ url, connections: CONNECTIONS, duration, timeout: 20, requests: [{ setupRequest: rotating(target) }] });
  if (options.warmupSeconds > 0) {
    await run(options.warmupSeconds);
    if (target.tokens?.length)
      await autocannon({
        url,
        connections: CONNECTIONS,
        amount: Math.max(target.tokens.length, CONNECTIONS),
        timeout: 20,
        requests: [{ setupRequest: rotating(target) }],
      });
  }
  const result = await run(options.seconds);
  return figuresOf(result, result.requests.average);
}

/** Each caller's first call, each token sent once and never before: every token is checked in full. */
export async function measureFirstCalls(url: string, target: LoadTarget & { tokens: string[] }): Promise<LoadFigures> {
  const started = performance.now();
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount: target.tokens.length,
    timeout: 20,
    requests: [{ setupRequest: rotating(target) }],
  });
  return figuresOf(result, result.requests.total / ((performance.now() - started) / 1000));
}
