import { PDF_FONT_COVERAGE } from './pdf-font-coverage.js';

/**
 * What the PDFs can print (decision 074). They embed Noto Sans (Latin, Greek, Cyrillic,
 * Vietnamese), Noto Sans Arabic and Noto Emoji; a character none of them draws comes out as an
 * empty box. The server picks each character's font with `pdfFontFamilyOf`; the web warns with
 * `unprintableCharacters` where a name buyers or a PDF see is chosen, before it is saved.
 */
export type TPdfFontFamily = keyof typeof PDF_FONT_COVERAGE;

/** The families in the order a character's font is chosen: the text font first, so digits and spaces stay in it. */
export const PDF_FONT_FAMILIES = Object.keys(PDF_FONT_COVERAGE) as TPdfFontFamily[];

type Ranges = Uint32Array;

/** '20-7e,a0' → [0x20, 0x7e, 0xa0, 0xa0]: start and end of each range, in order. */
function parseRanges(compact: string): Ranges {
  const bounds = compact.split(',').flatMap((range) => {
    const [from, to = from] = range.split('-') as [string, string?];
    return [parseInt(from, 16), parseInt(to, 16)];
  });
  return Uint32Array.from(bounds);
}

let coverage: Record<TPdfFontFamily, Ranges> | null = null;
const coverageOf = (family: TPdfFontFamily) => {
  coverage ??= Object.fromEntries(PDF_FONT_FAMILIES.map((name) => [name, parseRanges(PDF_FONT_COVERAGE[name])])) as Record<
    TPdfFontFamily,
    Ranges
  >;
  return coverage[family];
};

function inRanges(ranges: Ranges, codePoint: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codePoint < ranges[2 * middle]!) high = middle - 1;
    else if (codePoint > ranges[2 * middle + 1]!) low = middle + 1;
    else return true;
  }
  return false;
}

/** Whether a family's font (both weights) has a glyph for the character's first code point. */
export function pdfFontFamilyDraws(family: TPdfFontFamily, character: string): boolean {
  return inRanges(coverageOf(family), character.codePointAt(0)!);
}

/** The first family that draws the character, or null when none does. */
export function pdfFontFamilyOf(character: string): TPdfFontFamily | null {
  return PDF_FONT_FAMILIES.find((family) => pdfFontFamilyDraws(family, character)) ?? null;
}

/** Characters that print as nothing and need no glyph: a line break, and joiners and variation selectors a font may lack. */
const needsNoGlyph = (character: string) => /^[\n\r\t]$|^\p{Default_Ignorable_Code_Point}$/u.test(character);

/**
 * The characters of `text` that no PDF font draws, each once, in the order they first appear:
 * `unprintableCharacters('Li 李娜')` is `['李', '娜']`.
 */
export function unprintableCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const character of text.normalize('NFC')) {
    if (!needsNoGlyph(character) && pdfFontFamilyOf(character) === null) found.add(character);
  }
  return [...found];
}
