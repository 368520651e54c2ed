import { describe, expect, it } from 'vitest';
import { oreAsDecimalComma } from './export-group-csv.js';

describe('oreAsDecimalComma', () => {
  it('writes öre as the number Swedish Excel reads: decimal comma, two decimals, no grouping', () => {
    expect([0, 5, 99, 100, 14950, 123456789, -5, -14950].map(oreAsDecimalComma)).toEqual([
      '0,00',
      '0,05',
      '0,99',
      '1,00',
      '149,50',
      '1234567,89',
      '-0,05',
      '-149,50',
    ]);
  });
});
