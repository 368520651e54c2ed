/**
 * The portal's fonts in every PDF (issue 32 point 3, decision 074), so that any name prints as it
 * is written: Noto Sans for Latin, Greek, Cyrillic and Vietnamese, Noto Sans Arabic and Noto
 * Emoji (black and white), each in a regular and a bold weight. pdfkit embeds only the glyphs a
 * document uses, so a catalogue carries a few kilobytes of each font it needs, not the whole file.
 *
 * How a PDF writes text (newPdfDocument has registered the fonts on the document):
 *
 *   pdfText(doc, 'bold', name, x, y, { width });       // like doc.text(name, x, y, { width }) in bold
 *   pdfText(doc.fontSize(9).fillColor(GREY), 'regular', note, { width });  // at doc.x, doc.y
 *   pdfTextWidth(doc, 'regular', orderName);           // like doc.widthOfString
 *   pdfTextHeight(doc, 'bold', title, { width });      // like doc.heightOfString
 *
 * pdfText splits the text into runs, one per font (`fontRuns`), and writes them one after another
 * as pdfkit's `continued` text, so lines wrap across them (a centred or right-aligned line of
 * several runs is measured whole; give it `lineBreak: false`). Never call doc.font()
 * or doc.text() with text of your own: Helvetica draws no Ł, no Ж and no 🌟.
 *
 * What the fonts cover is the table packages/contract/src/pdf-font-coverage.ts, generated from
 * these files by scripts/generate-font-coverage.mjs: the web warns of a character none of them
 * draws (it prints as an empty box) where a name is chosen.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pdfFontFamilyDraws, pdfFontFamilyOf, type TPdfFontFamily } from '@saljportalen/contract';

export type PdfWeight = 'regular' | 'bold';

const FONT_FILES: Record<TPdfFontFamily, Record<PdfWeight, string>> = {
  text: {
    regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  },
  arabic: {
    regular: '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf',
  },
  emoji: {
    regular: '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf',
    bold: '@expo-google-fonts/noto-emoji/700Bold/NotoEmoji_700Bold.ttf',
  },
};

/** The name a font is registered under on a document: 'text-bold', 'emoji-regular'. */
const fontName = (family: TPdfFontFamily, weight: PdfWeight) => `${family}-${weight}`;

/** The font files' paths, found like a module so that the built server (dist/) and the tests find the same files. */
export function pdfFontFiles(): { family: TPdfFontFamily; weight: PdfWeight; file: string }[] {
  const require = createRequire(import.meta.url);
  return Object.entries(FONT_FILES).flatMap(([family, weights]) =>
    Object.entries(weights).map(([weight, file]) => ({
      family: family as TPdfFontFamily,
      weight: weight as PdfWeight,
      file: require.resolve(file),
    })),
  );
}

let fontBytes: Promise<{ name: string; bytes: Buffer }[]> | null = null;

/** The six files (about 3.4 MB), read once, when the first PDF is made; a failed read is tried again next time. */
function loadFonts() {
  fontBytes ??= Promise.all(
    pdfFontFiles().map(async ({ family, weight, file }) => ({ name: fontName(family, weight), bytes: await readFile(file) })),
  ).catch((error: unknown) => {
    fontBytes = null;
    throw error;
  });
  return fontBytes;
}

/** Registers the portal's fonts on a new document and makes regular Noto Sans its font (lib/pdf-document.ts). */
export async function registerPdfFonts(doc: PDFKit.PDFDocument): Promise<void> {
  for (const { name, bytes } of await loadFonts()) doc.registerFont(name, bytes);
  doc.font(fontName('text', 'regular'));
}

export interface FontRun {
  family: TPdfFontFamily;
  text: string;
}

/** A letter, a digit or an emoji picks its font; a space, a mark or punctuation stays in the run before it if that font has it. */
const picksItsFont = (character: string) => /[\p{L}\p{N}\p{Extended_Pictographic}]/u.test(character);
const isIgnorable = (character: string) => /^\p{Default_Ignorable_Code_Point}$/u.test(character);

/**
 * Whether a character that picks no font of its own stays in the run before it. In an Arabic run
 * a space or punctuation does, so that the run's words are ordered right to left together; an
 * emoji keeps only its joiners, variation selectors and combining marks (Noto Emoji's space is an em wide).
 */
function staysInRun(current: FontRun, character: string): boolean {
  if (picksItsFont(character)) return false;
  if (character === '\n') return true;
  if (!pdfFontFamilyDraws(current.family, character)) return false;
  return current.family !== 'emoji' || isIgnorable(character) || /\p{M}/u.test(character);
}

/**
 * The text in runs of one font each: 'Alva 🌟 från 6B' is 'Alva ' in Noto Sans, '🌟 ' in Noto
 * Emoji and 'från 6B' in Noto Sans. Spaces between Arabic words stay in the Arabic run, so that a
 * right-to-left name is laid out as one. A character no font draws is kept in the
 * run it is in and prints as that font's empty box; a joiner or variation selector no font has is
 * dropped, as it prints as nothing anyway.
 */
export function fontRuns(text: string): FontRun[] {
  const runs: FontRun[] = [];
  for (const character of text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').normalize('NFC')) {
    const current = runs.at(-1);
    if (current && staysInRun(current, character)) {
      current.text += character;
      continue;
    }
    const family = pdfFontFamilyOf(character);
    if (family === null && isIgnorable(character)) continue;
    const chosen = family ?? current?.family ?? 'text';
    if (current?.family === chosen) current.text += character;
    else runs.push({ family: chosen, text: character });
  }
  return runs;
}

type TextOptions = PDFKit.Mixins.TextOptions;

/**
 * Writes `text` like `doc.text(text, x, y, options)`, in the weight given and each character in a
 * font that draws it. Without x and y it writes at doc.x, doc.y. Returns the document to chain on.
 */
export function pdfText(doc: PDFKit.PDFDocument, weight: PdfWeight, text: string, options?: TextOptions): PDFKit.PDFDocument;
export function pdfText(
  doc: PDFKit.PDFDocument,
  weight: PdfWeight,
  text: string,
  x: number,
  y: number,
  options?: TextOptions,
): PDFKit.PDFDocument;
export function pdfText(
  doc: PDFKit.PDFDocument,
  weight: PdfWeight,
  text: string,
  xOrOptions?: number | TextOptions,
  y?: number,
  lastOptions?: TextOptions,
): PDFKit.PDFDocument {
  const x = typeof xOrOptions === 'number' ? xOrOptions : undefined;
  const options = (typeof xOrOptions === 'number' ? lastOptions : xOrOptions) ?? {};
  const runs = fontRuns(text);
  if (runs.length === 0) runs.push({ family: 'text', text: '' });
  if (runs.length > 1 && (options.align === 'center' || options.align === 'right')) {
    if (options.lineBreak === false) return alignedLine(doc, weight, runs, x ?? doc.x, y ?? doc.y, options);
    return alignedLines(doc, weight, text, x ?? doc.x, y ?? doc.y, options);
  }
  runs.forEach((run, index) => {
    const continued = index < runs.length - 1 || (options.continued ?? false);
    doc.font(fontName(run.family, weight));
    if (index === 0 && x !== undefined) doc.text(run.text, x, y, { ...runOptions(run, options), continued });
    else doc.text(run.text, { ...runOptions(run, options), continued });
  });
  return doc;
}

/**
 * OpenType features per family. Given any, pdfkit has fontkit lay out a line whole rather than word
 * by word, left to right, which an Arabic line needs to order its words right to left; an empty
 * list keeps the font's defaults (joining forms, ligatures). Noto Sans's `ccmp` would split a
 * Vietnamese 'ị' into 'i' and a dot below, and pdfkit gives each glyph a single character for copying
 * and searching, so the text reads back as 'i': without it the font's own 'ị' is drawn.
 */
const FEATURES: Record<TPdfFontFamily, TextOptions['features']> = {
  // pdfkit's types list features to turn on; fontkit also takes an object that turns one off.
  text: { ccmp: false } as unknown as TextOptions['features'],
  arabic: [],
  emoji: undefined,
};

const runOptions = (run: FontRun, options: TextOptions): TextOptions => ({ features: FEATURES[run.family], ...options });

/**
 * One line of several runs centred or right-aligned in `options.width`: pdfkit aligns each
 * `continued` piece on its own, so the line is measured whole and its runs written from its start.
 */
function alignedLine(doc: PDFKit.PDFDocument, weight: PdfWeight, runs: FontRun[], x: number, y: number, options: TextOptions) {
  const lineWidth = runs.reduce(
    (sum, run) => sum + doc.font(fontName(run.family, weight)).widthOfString(run.text, runOptions(run, options)),
    0,
  );
  const room = (options.width ?? lineWidth) - lineWidth;
  const start = x + Math.max(0, options.align === 'center' ? room / 2 : room);
  const { width: _width, align: _align, ...rest } = options;
  runs.forEach((run, index) => {
    doc.font(fontName(run.family, weight));
    const continued = index < runs.length - 1;
    if (index === 0) doc.text(run.text, start, y, { ...runOptions(run, rest), continued });
    else doc.text(run.text, { ...runOptions(run, rest), continued });
  });
  return doc;
}

/**
 * Text of several runs centred or right-aligned over as many lines as it needs: pdfkit wraps and
 * aligns each `continued` piece on its own, which jumbles such a text ('från 6BAlva'), so the words
 * are wrapped here, in `options.width`, and each line is written as one aligned line.
 */
function alignedLines(doc: PDFKit.PDFDocument, weight: PdfWeight, text: string, x: number, y: number, options: TextOptions) {
  const width = options.width ?? doc.page.width - doc.page.margins.right - x;
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/(?<=\s)/)) {
      if (line && pdfTextWidth(doc, weight, `${line}${word}`.trimEnd(), options) > width) {
        lines.push(line.trimEnd());
        line = word.trimStart();
      } else line += word;
    }
    lines.push(line.trimEnd());
  }
  let top = y;
  for (const line of lines) {
    alignedLine(doc, weight, fontRuns(line), x, top, { ...options, width, lineBreak: false });
    top += doc.currentLineHeight(true) + (options.lineGap ?? 0);
  }
  doc.x = x;
  doc.y = top;
  return doc;
}

/** The width of `text` on one line in the current font size, like doc.widthOfString, each run measured in its font. */
export function pdfTextWidth(doc: PDFKit.PDFDocument, weight: PdfWeight, text: string, options?: TextOptions): number {
  return fontRuns(text).reduce(
    (width, run) => width + doc.font(fontName(run.family, weight)).widthOfString(run.text, runOptions(run, options ?? {})),
    0,
  );
}

/**
 * The height `text` takes when written with these options, like doc.heightOfString. Measured in
 * Noto Sans alone (pdfkit measures in one font): an Arabic or emoji run may wrap a little
 * differently, which a row's spacing absorbs.
 */
export function pdfTextHeight(doc: PDFKit.PDFDocument, weight: PdfWeight, text: string, options?: TextOptions): number {
  return doc.font(fontName('text', weight)).heightOfString(
    fontRuns(text)
      .map((run) => run.text)
      .join(''),
    options,
  );
}
