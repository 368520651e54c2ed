import { describe, expect, it } from 'vitest';
import { parseChange } from './change-feed.js';

describe('the change feed’s payloads', () => {
  it('are read into typed changes', () => {
    expect(parseChange('{"k":"f","g":3,"v":41,"s":24900,"c":6225,"n":1}')).toEqual({
      kind: 'figures',
      groupId: 3,
      version: 41,
      figures: { salesOre: 24900, commissionOre: 6225, ordersCount: 1 },
    });
    expect(parseChange('{"k":"mf","m":12,"g":3,"s":-100,"c":-25,"n":0}')).toEqual({
      kind: 'membership-figures',
      membershipId: 12,
      groupId: 3,
      figures: { salesOre: -100, commissionOre: -25, ordersCount: 0 },
    });
    expect(parseChange('{"k":"p","g":3,"p":7}')).toEqual({ kind: 'payout', groupId: 3, payoutId: 7 });
    expect(parseChange('{"k":"s","g":3,"m":12,"a":24900}')).toEqual({ kind: 'sale', groupId: 3, membershipId: 12, amountOre: 24900 });
    expect(parseChange('{"k":"u","u":5}')).toEqual({ kind: 'access', userId: 5 });
    expect(parseChange('{"k":"us","u":5}')).toEqual({ kind: 'user', userId: 5 });
    expect(parseChange('{"k":"ms","m":12}')).toEqual({ kind: 'membership', membershipId: 12 });
    expect(parseChange('{"k":"gr","g":3}')).toEqual({ kind: 'group', groupId: 3 });
    expect(parseChange('{"k":"b","p":"a1b2","n":9,"v":24050128}')).toEqual({
      kind: 'barrier',
      processId: 'a1b2',
      seq: 9,
      version: 24050128,
    });
  });

  it('pass over anything not of ours', () => {
    for (const payload of [
      '{"k":"f","g":3,"v":41}',
      '{"k":"mf","m":1,"g":3,"s":1,"c":1}',
      '{"k":"b","p":1,"n":2,"v":3}',
      '{"k":"b","p":"a1b2","n":9}',
      '',
      'null',
      '[]',
      '{"k":"f","g":"3","v":1}',
      '{"k":"s","g":3,"m":12}',
      '{"k":"x"}',
      '{"k":"f","g":1.5,"v":2}',
    ]) {
      expect(parseChange(payload)).toBeUndefined();
    }
  });
});
