import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './mail-outbox.js';

describe('retryDelayMs', () => {
  it('doubles from the base after each failed attempt, up to 30 times the base', () => {
    const base = 30_000;
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((attempts) => retryDelayMs(attempts, base) / 1000)).toEqual([
      30, 60, 120, 240, 480, 900, 900, 900,
    ]);
  });

  it('retries a 10-minute refusal within the first five attempts', () => {
    let waited = 0;
    let attempts = 0;
    while (waited < 10 * 60_000) waited += retryDelayMs(++attempts, 30_000);
    expect(attempts).toBeLessThanOrEqual(5);
  });
});
