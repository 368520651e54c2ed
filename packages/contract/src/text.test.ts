import { describe, expect, it } from 'vitest';
import { toSingleLineText } from './text.js';

describe('toSingleLineText', () => {
  it('turns every control character and line separator into one space', () => {
    expect(toSingleLineText("Noah\r=cmd|' /C calc'!A0")).toBe("Noah =cmd|' /C calc'!A0");
    expect(toSingleLineText('a\u0000b\u001bc\u007fd\u0085e\u2028f\tg\nh')).toBe('a b c d e f g h');
  });

  it('keeps Swedish letters and trims the ends', () => {
    expect(toSingleLineText('  Åsa  Öberg \n')).toBe('Åsa Öberg');
  });
});
