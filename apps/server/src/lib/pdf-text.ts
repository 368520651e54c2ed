/**
 * pdfkit's built-in fonts (Helvetica…) encode text as WinAnsi: Latin-1 plus a few typographic
 * marks. That covers Swedish (å ä ö é ü), but a character outside it is written as garbage, so
 * every string drawn with a built-in font passes through here first: a letter with a diacritic
 * WinAnsi lacks loses the diacritic (ć → c), anything else becomes '?'.
 */
const WIN_ANSI_BEYOND_LATIN1 = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Letters that have no decomposition to a base letter but an obvious plain spelling. */
const PLAIN_SPELLING: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  ı: 'i',
  '\u2212': '-',
  '\u2011': '-',
  '\u202f': '\u00a0',
  '\u2009': ' ',
  '\t': ' ',
};

function isWinAnsi(character: string): boolean {
  const code = character.codePointAt(0)!;
  return code === 0x0a || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_BEYOND_LATIN1.has(character);
}

export function toWinAnsi(text: string): string {
  let result = '';
  for (const character of text.replace(/\r\n?/g, '\n').normalize('NFC')) {
    if (isWinAnsi(character)) {
      result += character;
      continue;
    }
    const plain = PLAIN_SPELLING[character] ?? character.normalize('NFD').replace(/\p{M}/gu, '');
    result += plain !== '' && [...plain].every(isWinAnsi) ? plain : '?';
  }
  return result;
}
