import { describe, expect, it } from 'vitest';
import { catalogFileName } from './catalog.js';

describe('catalogFileName', () => {
  it('keeps the name as it is written (issue 32 point 3)', () => {
    expect(catalogFileName('Łucja')).toBe('katalog-Łucja.pdf');
    expect(catalogFileName('Elsa Åberg-Öst')).toBe('katalog-Elsa-Åberg-Öst.pdf');
    expect(catalogFileName('  Zoë  Ängström ')).toBe('katalog-Zoë-Ängström.pdf');
    expect(catalogFileName('李小龍')).toBe('katalog-李小龍.pdf');
    expect(catalogFileName('Alva 🌟 från 6B')).toBe('katalog-Alva-från-6B.pdf');
  });

  it('never lets a quote or a path through into the header', () => {
    expect(catalogFileName('a"b/../c\r\nd')).toBe('katalog-a-b-c-d.pdf');
  });

  it('falls back when no letter or digit is left', () => {
    expect(catalogFileName('🌟 ✨')).toBe('katalog-saljare.pdf');
  });

  it('keeps at most 60 characters of the name, without a trailing hyphen', () => {
    expect(catalogFileName(`${'a'.repeat(59)} b`)).toBe(`katalog-${'a'.repeat(59)}.pdf`);
    expect(catalogFileName('Ł'.repeat(70))).toBe(`katalog-${'Ł'.repeat(60)}.pdf`);
  });
});
