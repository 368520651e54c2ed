import { describe, expect, it } from 'vitest';
import { createLeaderboardCache } from './leaderboard-cache.js';

const counting = () => {
  let loads = 0;
  return {
    load: (json: string) => async () => {
      loads++;
      return json;
    },
    count: () => loads,
  };
};

describe('the leaderboard cache', () => {
  it('loads a group once per version, and again for a new version', async () => {
    const cache = createLeaderboardCache<string>();
    const loads = counting();
    expect(await cache.get(1, 10, loads.load('[1]'))).toBe('[1]');
    expect(await cache.get(1, 10, loads.load('[other]'))).toBe('[1]');
    expect(loads.count()).toBe(1);
    expect(await cache.get(1, 11, loads.load('[2]'))).toBe('[2]');
    // An older version read by a slower request is loaded, never answered from the newer entry.
    expect(await cache.get(1, 10, loads.load('[old]'))).toBe('[old]');
    expect(loads.count()).toBe(3);
  });

  it('shares one load between requests that ask at the same moment', async () => {
    const cache = createLeaderboardCache<string>();
    const loads = counting();
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.get(7, 1, loads.load('[7]'))));
    expect(new Set(answers)).toEqual(new Set(['[7]']));
    expect(loads.count()).toBe(1);
  });

  it('keeps no failed load', async () => {
    const cache = createLeaderboardCache<string>();
    await expect(cache.get(3, 1, () => Promise.reject(new Error('databasen svarar inte')))).rejects.toThrow();
    expect(await cache.get(3, 1, async () => '[3]')).toBe('[3]');
  });

  it('forgets the least recently used group beyond its size', async () => {
    const cache = createLeaderboardCache<string>({ maxGroups: 2 });
    const loads = counting();
    await cache.get(1, 1, loads.load('[1]'));
    await cache.get(2, 1, loads.load('[2]'));
    await cache.get(1, 1, loads.load('[1]'));
    await cache.get(3, 1, loads.load('[3]'));
    expect(loads.count()).toBe(3);
    await cache.get(1, 1, loads.load('[1]'));
    expect(loads.count()).toBe(3);
    await cache.get(2, 1, loads.load('[2]'));
    expect(loads.count()).toBe(4);
  });
});
