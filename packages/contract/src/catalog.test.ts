import { describe, expect, it } from 'vitest';
import { fileNameSlug } from './create-seller-catalog.js';

describe('fileNameSlug', () => {
  it('spells Swedish names in plain ASCII', () => {
    expect(fileNameSlug('Elsa Åberg-Öst')).toBe('elsa-aberg-ost');
    expect(fileNameSlug('  Zoë  Ängström ')).toBe('zoe-angstrom');
  });

  it('never lets a quote or a path through into the header', () => {
    expect(fileNameSlug('a"b/../c\r\nd')).toBe('a-b-c-d');
  });

  it('falls back when nothing readable is left', () => {
    expect(fileNameSlug('李小龍')).toBe('saljare');
  });
});
