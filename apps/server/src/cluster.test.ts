/** The bound on replacing workers that die (decision 026). */
import { describe, expect, it } from 'vitest';
import { MAX_RESTARTS, RESTART_WINDOW_MS, mayRestart } from './cluster.js';

describe('replacing a worker that died', () => {
  it('is allowed MAX_RESTARTS times within a minute, and refused the time after', () => {
    const restarts: number[] = [];
    for (let i = 0; i < MAX_RESTARTS; i++) {
      expect(mayRestart(restarts, 1_000 + i)).toBe(true);
      restarts.push(1_000 + i);
    }
    expect(mayRestart(restarts, 1_000 + MAX_RESTARTS)).toBe(false);
    expect(mayRestart(restarts, 1_000 + RESTART_WINDOW_MS - 1)).toBe(false);
  });

  it('is allowed again once the oldest restart is a minute old, and forgets the old ones', () => {
    const restarts = Array.from({ length: MAX_RESTARTS }, (_, i) => i * 1_000);
    expect(mayRestart(restarts, RESTART_WINDOW_MS)).toBe(true);
    expect(restarts).toHaveLength(MAX_RESTARTS - 1);
    expect(mayRestart(restarts, 10 * RESTART_WINDOW_MS)).toBe(true);
    expect(restarts).toEqual([]);
  });
});
