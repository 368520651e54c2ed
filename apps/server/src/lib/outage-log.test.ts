import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { OUTAGE_LOG_WINDOW_MS, OutageLog } from './outage-log.js';

afterEach(() => vi.useRealTimers());

function recorder() {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const log = {
    warn: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }),
  } as unknown as FastifyBaseLogger;
  return { log, lines };
}

describe('OutageLog', () => {
  it('writes the first refusal, then one line per window for the rest, however many there are', () => {
    vi.useFakeTimers();
    let now = 0;
    const { log, lines } = recorder();
    const outage = new OutageLog(log, () => now);
    // 150 refusals a second for 10 seconds, the traffic of issue 34's outage.
    for (let tick = 0; tick < 1500; tick++) {
      now = tick * (1000 / 150);
      outage.refused({ url: `/api/${tick}` }, 'databasen svarar inte: 503');
    }
    now = OUTAGE_LOG_WINDOW_MS + 1;
    vi.advanceTimersByTime(OUTAGE_LOG_WINDOW_MS);
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(lines[0]).toEqual({ fields: { url: '/api/0' }, message: 'databasen svarar inte: 503' });
    const counted = lines.slice(1).reduce((sum, line) => sum + Number(line.fields.refused ?? 1), 1);
    expect(counted).toBe(1500);
  });

  it('says how many a window held when the outage ends quietly, and starts over with the next one', () => {
    vi.useFakeTimers();
    let now = 0;
    const { log, lines } = recorder();
    const outage = new OutageLog(log, () => now);
    outage.refused({ url: '/a' }, 'nere');
    now = 100;
    outage.refused({ url: '/b' }, 'nere');
    outage.refused({ url: '/c' }, 'nere');
    expect(lines).toHaveLength(1);
    now = OUTAGE_LOG_WINDOW_MS;
    vi.advanceTimersByTime(OUTAGE_LOG_WINDOW_MS);
    expect(lines[1]).toEqual({
      fields: { refused: 2, first: { url: '/b' } },
      message: 'ytterligare 2 förfrågningar besvarades med 503 medan databasen inte svarade',
    });
    now = 3 * OUTAGE_LOG_WINDOW_MS;
    outage.refused({ url: '/d' }, 'nere igen');
    expect(lines[2]).toEqual({ fields: { url: '/d' }, message: 'nere igen' });
  });
});
