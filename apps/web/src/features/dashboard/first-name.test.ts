import { describe, expect, it } from 'vitest';
import { firstName } from './first-name';

describe('firstName', () => {
  it('takes the first word of the full name', () => {
    expect(firstName('Elsa Åberg')).toBe('Elsa');
    expect(firstName('  Åsa-Lena   Öst ')).toBe('Åsa-Lena');
  });
  it('is empty for an empty name', () => {
    expect(firstName('')).toBe('');
  });
});
