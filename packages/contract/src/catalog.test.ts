import { describe, expect, it } from 'vitest';
import { catalogFileName } from './catalog.js';

describe('catalogFileName', () => {
  it('spells Swedish names in plain ASCII', () => {
    expect(catalogFileName('Elsa Åberg-Öst')).toBe('katalog-elsa-aberg-ost.pdf');
    expect(catalogFileName('  Zoë  Ängström ')).toBe('katalog-zoe-angstrom.pdf');
  });

  it('never lets a quote or a path through into the header', () => {
    expect(catalogFileName('a"b/../c\r\nd')).toBe('katalog-a-b-c-d.pdf');
  });

  it('falls back when nothing readable is left', () => {
    expect(catalogFileName('李小龍')).toBe('katalog-saljare.pdf');
  });

  it('keeps at most 60 characters of the name, without a trailing hyphen', () => {
    expect(catalogFileName(`${'a'.repeat(59)} b`)).toBe(`katalog-${'a'.repeat(59)}.pdf`);
  });
});
