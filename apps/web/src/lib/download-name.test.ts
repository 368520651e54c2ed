import { describe, expect, it } from 'vitest';
import { downloadName } from './download-name';

describe('downloadName', () => {
  it('takes the name as written from filename*', () => {
    expect(downloadName(`attachment; filename=katalog-Lucja.pdf; filename*=UTF-8''katalog-%C5%81ucja.pdf`, 'x.pdf')).toBe(
      'katalog-Łucja.pdf',
    );
  });

  it('takes filename, quoted or not, when there is no filename*', () => {
    expect(downloadName('attachment; filename=avrakning-12.pdf', 'x.pdf')).toBe('avrakning-12.pdf');
    expect(downloadName('attachment; filename="katalog-a b\\"c.pdf"', 'x.pdf')).toBe('katalog-a b"c.pdf');
  });

  it('keeps the expected name without a header, or with a broken one', () => {
    expect(downloadName(null, 'grupp-4.csv')).toBe('grupp-4.csv');
    expect(downloadName("attachment; filename*=UTF-8''%E0%A4", 'grupp-4.csv')).toBe('grupp-4.csv');
  });
});
