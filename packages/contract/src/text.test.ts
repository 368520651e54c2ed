import { describe, expect, it } from 'vitest';
import { hasForbiddenCharacter, toSingleLineText, toWellFormedText } from './text.js';

describe('toSingleLineText', () => {
  it('turns every control character and line separator into one space', () => {
    expect(toSingleLineText("Noah\r=cmd|' /C calc'!A0")).toBe("Noah =cmd|' /C calc'!A0");
    expect(toSingleLineText('a\u0000b\u001bc\u007fd\u0085e\u2028f\tg\nh')).toBe('a b c d e f g h');
  });

  it('keeps Swedish letters and trims the ends', () => {
    expect(toSingleLineText('  Åsa  Öberg \n')).toBe('Åsa Öberg');
  });

  it('makes a lone surrogate U+FFFD and keeps a pair whole', () => {
    expect(toSingleLineText('6B\ud800 Björk\udc00')).toBe('6B\ufffd Björk\ufffd');
    expect(toSingleLineText('Klass 🙂')).toBe('Klass 🙂');
  });
});

describe('well-formed text', () => {
  it('finds NUL and lone surrogates, in any order and place, and nothing in good text', () => {
    for (const bad of ['\u0000', 'a\u0000', '\ud800', '\udfff', 'a\ud83d', '\ude00b', '\udc00\ud800', '\ud800\ud800\udc00'])
      expect(hasForbiddenCharacter(bad), JSON.stringify(bad)).toBe(true);
    for (const good of ['', 'Åsa Öberg', '🙂👨‍👩‍👧', '\ufffd', '\uffff', 'a\tb\nc'])
      expect(hasForbiddenCharacter(good), JSON.stringify(good)).toBe(false);
  });

  it('replaces each lone surrogate with U+FFFD', () => {
    expect(toWellFormedText('a\ud800b\udc00c\ud83d\ude00')).toBe('a\ufffdb\ufffdc😀');
  });
});
