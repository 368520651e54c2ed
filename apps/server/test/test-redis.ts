/** The machine's Redis that the tests use (test-services.mjs starts one for `npm test`). */
import net from 'node:net';

export const TEST_REDIS = { host: '127.0.0.1', port: 6379 };
export const TEST_REDIS_URL = `redis://${TEST_REDIS.host}:${TEST_REDIS.port}`;

/** Whether a Redis answers there: tests that need one skip without it, unless CI says it must be there. */
export function redisReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ ...TEST_REDIS, timeout: 500 });
    const answer = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.once('connect', () => answer(true));
    socket.once('error', () => answer(false));
    socket.once('timeout', () => answer(false));
  });
}
