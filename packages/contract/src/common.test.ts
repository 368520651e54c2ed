import { describe, expect, it } from 'vitest';
import { ZDateSchema } from './index.js';

describe('ZDateSchema', () => {
  it('accepts real calendar days only', () => {
    expect(ZDateSchema.safeParse('2024-02-29').success).toBe(true);
    expect(ZDateSchema.safeParse('2025-02-29').success).toBe(false);
    expect(ZDateSchema.safeParse('2025-02-30').success).toBe(false);
    expect(ZDateSchema.safeParse('2025-13-01').success).toBe(false);
    expect(ZDateSchema.safeParse('2025-1-01').success).toBe(false);
  });
});
