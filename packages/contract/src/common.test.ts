import { describe, expect, it } from 'vitest';
import { ZDateSchema, idSchema } from './index.js';

describe('ZDateSchema', () => {
  it('accepts real calendar days only', () => {
    expect(ZDateSchema.safeParse('2024-02-29').success).toBe(true);
    expect(ZDateSchema.safeParse('2025-02-29').success).toBe(false);
    expect(ZDateSchema.safeParse('2025-02-30').success).toBe(false);
    expect(ZDateSchema.safeParse('2025-13-01').success).toBe(false);
    expect(ZDateSchema.safeParse('2025-1-01').success).toBe(false);
  });
});

describe('idSchema', () => {
  it('accepts positive integers up to PostgreSQL integer, as numbers or as text, and nothing else', () => {
    const ids = idSchema();
    expect([1, '42', 2_147_483_647, '2147483647'].map((id) => ids.safeParse(id).data)).toEqual([1, 42, 2_147_483_647, 2_147_483_647]);
    for (const id of [2_147_483_648, '2147483648', 2 ** 53 + 2, 0, -1, 1.5, 'abc', '', true, null, [], {}]) {
      expect(ids.safeParse(id).error?.issues[0]?.message, String(id)).toBe('Ogiltigt id');
    }
  });

  it('words its refusals as the form does', () => {
    const group = idSchema('Ogiltig grupp', 'Fyll i alla fält');
    expect(group.safeParse(undefined).error?.issues[0]?.message).toBe('Fyll i alla fält');
    expect(group.safeParse(2 ** 31).error?.issues[0]?.message).toBe('Ogiltig grupp');
  });
});
