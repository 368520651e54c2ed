import { describe, expect, it } from 'vitest';
import { pdfFontFamilyOf, unprintableCharacters } from './printable.js';

describe('unprintableCharacters', () => {
  it('finds none in names in the scripts the PDFs print', () => {
    for (const name of [
      'Łucja Şahin-Nguyễn',
      'Alva 🌟 från 6B',
      'Μαρία Παπαδοπούλου',
      'Мария Иванова',
      'محمد علي',
      '👩‍👧 Ingrid ❤️',
      'Åsa\nÖberg',
    ]) {
      expect(unprintableCharacters(name), name).toEqual([]);
    }
  });

  it('names each character no font draws once, in the order it first appears', () => {
    expect(unprintableCharacters('Li 李娜 李')).toEqual(['李', '娜']);
    expect(unprintableCharacters('Sun-ok 선옥')).toEqual(['선', '옥']);
  });

  it('reads a letter written in two parts as the one letter it is', () => {
    expect(unprintableCharacters('A\u030agren')).toEqual([]);
  });
});

describe('pdfFontFamilyOf', () => {
  it('tries the text font first, so a digit or space in an emoji font stays in Noto Sans', () => {
    expect(pdfFontFamilyOf('7')).toBe('text');
    expect(pdfFontFamilyOf(' ')).toBe('text');
    expect(pdfFontFamilyOf('ب')).toBe('arabic');
    expect(pdfFontFamilyOf('🦔')).toBe('emoji');
  });
});
