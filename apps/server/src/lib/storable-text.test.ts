import { describe, expect, it } from 'vitest';
import { toStorableText } from './storable-text.js';

describe('toStorableText', () => {
  it('removes NUL and makes lone surrogates U+FFFD, keeping line breaks, tabs and whole characters', () => {
    expect(toStorableText('Rad 1\u0000\nRad\t2')).toBe('Rad 1\nRad\t2');
    expect(toStorableText('a\ud800b\udc00c')).toBe('a\ufffdb\ufffdc');
    expect(toStorableText('\udbff')).toBe('\ufffd');
    expect(toStorableText('Kaffe ☕ 😀 åäö')).toBe('Kaffe ☕ 😀 åäö');
  });

  it('leaves nothing that PostgreSQL text or a jsonb string refuses, whatever the input', () => {
    // One expectation over all 65,536 code units (131,072 made the test slow under load).
    const refused: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const text = toStorableText(`x${String.fromCharCode(code)}y`);
      // Well-formed UTF-16 survives a round trip through UTF-8 unchanged.
      if (text.includes('\u0000') || Buffer.from(text, 'utf8').toString('utf8') !== text) refused.push(code);
    }
    expect(refused).toEqual([]);
  });
});
