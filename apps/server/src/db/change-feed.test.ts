import { describe, expect, it } from 'vitest';
import { parseChange } from './change-feed.js';

describe('the change feed’s payloads', () => {
  it('are read into typed changes', () => {
    expect(parseChange('{"k":"f","g":3,"v":41}')).toEqual({ kind: 'figures', groupId: 3, version: 41 });
    expect(parseChange('{"k":"p","g":3,"p":7}')).toEqual({ kind: 'payout', groupId: 3, payoutId: 7 });
    expect(parseChange('{"k":"s","g":3,"m":12,"a":24900}')).toEqual({ kind: 'sale', groupId: 3, membershipId: 12, amountOre: 24900 });
    expect(parseChange('{"k":"u","u":5}')).toEqual({ kind: 'access', userId: 5 });
  });

  it('pass over anything not of ours', () => {
    for (const payload of ['', 'null', '[]', '{"k":"f","g":"3","v":1}', '{"k":"s","g":3,"m":12}', '{"k":"x"}', '{"k":"f","g":1.5,"v":2}']) {
      expect(parseChange(payload)).toBeUndefined();
    }
  });
});
