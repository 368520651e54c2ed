import { parse } from 'content-disposition';
import { describe, expect, it } from 'vitest';
import { asciiFileName, attachmentHeader } from './attachment-header.js';

describe('attachmentHeader', () => {
  it('sends the name as written in filename*, with a plain ASCII spelling in filename', () => {
    expect(attachmentHeader('katalog-Łucja.pdf')).toBe(`attachment; filename=katalog-Lucja.pdf; filename*=UTF-8''katalog-%C5%81ucja.pdf`);
    expect(parse(attachmentHeader('katalog-Łucja-Şahin-Nguyễn.pdf')).parameters.filename).toBe('katalog-Łucja-Şahin-Nguyễn.pdf');
    expect(attachmentHeader('katalog-a b"c.pdf')).toBe('attachment; filename="katalog-a b\\"c.pdf"');
  });

  it('sends an ASCII name once, unquoted as it needs no quotes', () => {
    expect(attachmentHeader('avrakning-12.pdf')).toBe('attachment; filename=avrakning-12.pdf');
  });

  it('keeps Swedish letters in filename*, and spells them plainly in filename', () => {
    expect(attachmentHeader('katalog-Åsa-Öberg.pdf')).toBe(
      `attachment; filename=katalog-Asa-Oberg.pdf; filename*=UTF-8''katalog-%C3%85sa-%C3%96berg.pdf`,
    );
  });
});

describe('asciiFileName', () => {
  it('drops what has no plain spelling, and the hyphens left behind', () => {
    expect(asciiFileName('katalog-李娜.pdf')).toBe('katalog.pdf');
    expect(asciiFileName('katalog-Мария-Ali.pdf')).toBe('katalog-Ali.pdf');
    expect(asciiFileName('katalog-Łódź-Ørsted-Straße.pdf')).toBe('katalog-Lodz-Orsted-Strasse.pdf');
  });
});
