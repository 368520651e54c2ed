import { describe, expect, it } from 'vitest';
import { NEUTRAL_SELLER_NAME, publicSellerName } from './public-seller-name.js';

const elsa = { fullName: 'Elsa Åberg Lind', alias: 'Stjärnan', protectedIdentity: false };

describe('publicSellerName', () => {
  it('shows the first name by default, the full name or the alias when chosen', () => {
    expect(publicSellerName({ ...elsa, publicName: 'first_name' })).toBe('Elsa');
    expect(publicSellerName({ ...elsa, publicName: 'full_name' })).toBe('Elsa Åberg Lind');
    expect(publicSellerName({ ...elsa, publicName: 'alias' })).toBe('Stjärnan');
  });

  it('shows a protected pupil only by alias, whatever the choice, and neutrally without one', () => {
    for (const publicName of ['first_name', 'full_name', 'alias'] as const) {
      expect(publicSellerName({ ...elsa, publicName, protectedIdentity: true })).toBe('Stjärnan');
      expect(publicSellerName({ ...elsa, publicName, alias: null, protectedIdentity: true })).toBe(NEUTRAL_SELLER_NAME);
      expect(publicSellerName({ ...elsa, publicName, alias: '  ', protectedIdentity: true })).toBe(NEUTRAL_SELLER_NAME);
    }
  });

  it('never falls back to the real name when an alias is chosen but missing', () => {
    expect(publicSellerName({ ...elsa, publicName: 'alias', alias: null })).toBe(NEUTRAL_SELLER_NAME);
  });
});
