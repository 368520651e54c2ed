import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UNAMBIGUOUS_ALPHABET } from '../../lib/random-codes.js';
import { generateGroupCode, GROUP_CODE_LENGTH } from './group-code.js';

// Issue 4: no 0/O, no 1/I/l, nothing a child could misread on a phone.
const AMBIGUOUS = ['0', 'O', 'o', '1', 'I', 'i', 'l', 'L'];

const isWellFormed = (code: string) =>
  code.length === GROUP_CODE_LENGTH && [...code].every((character) => UNAMBIGUOUS_ALPHABET.includes(character));

describe('group code', () => {
  it('is six upper-case letters and digits', () => {
    expect(GROUP_CODE_LENGTH).toBe(6);
    for (let i = 0; i < 2000; i++) expect(generateGroupCode()).toMatch(/^[2-9A-Z]{6}$/);
  });

  it('never contains a character that can be mistaken for another', () => {
    for (const character of AMBIGUOUS) expect(UNAMBIGUOUS_ALPHABET).not.toContain(character);
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) for (const character of generateGroupCode()) seen.add(character);
    for (const character of AMBIGUOUS) expect(seen.has(character)).toBe(false);
    // Every character of the alphabet is in use, so the code space is as large as it claims.
    expect(seen.size).toBe(UNAMBIGUOUS_ALPHABET.length);
  });

  it('spreads codes out: 20 000 draws give no more than a handful of repeats', () => {
    const codes = Array.from({ length: 20_000 }, generateGroupCode);
    // Birthday bound over 29^6 codes: about 0.34 expected collisions.
    expect(codes.length - new Set(codes).size).toBeLessThanOrEqual(3);
  });

  it('every draw is well formed, and the check rejects anything with an ambiguous character (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), (draws) => Array.from({ length: draws }, generateGroupCode).every(isWellFormed)),
    );
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...UNAMBIGUOUS_ALPHABET), { minLength: GROUP_CODE_LENGTH - 1, maxLength: GROUP_CODE_LENGTH - 1 }),
        fc.constantFrom(...AMBIGUOUS),
        fc.nat(GROUP_CODE_LENGTH - 1),
        (characters, ambiguous, position) => {
          characters.splice(position, 0, ambiguous);
          return !isWellFormed(characters.join(''));
        },
      ),
    );
  });
});
