import { create } from 'content-disposition';

/** Letters with no decomposition to a base letter but an obvious plain spelling. */
const PLAIN_SPELLING: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ø: 'O',
  ø: 'o',
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  ß: 'ss',
  Þ: 'Th',
  þ: 'th',
  ı: 'i',
};

/**
 * The file name in plain ASCII, for a client that reads only `filename`: 'katalog-Łucja.pdf' →
 * 'katalog-Lucja.pdf'. Diacritics go, a letter of another script goes, and so do the hyphens it
 * leaves behind ('katalog-李娜.pdf' → 'katalog.pdf').
 */
export function asciiFileName(fileName: string): string {
  return fileName
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, (character) => PLAIN_SPELLING[character] ?? '')
    .replace(/-{2,}/g, '-')
    .replace(/-(?=\.)|^-/g, '');
}

/**
 * The `Content-Disposition` of a download: the name as it is written in `filename*` (RFC 6266,
 * UTF-8) and its ASCII spelling in `filename` for older clients (issue 32 point 3), by jshttp's
 * content-disposition, which quotes and escapes both. An ASCII name is sent once, as `filename`.
 */
export const attachmentHeader = (fileName: string) => create(fileName, { fallback: asciiFileName(fileName) });
