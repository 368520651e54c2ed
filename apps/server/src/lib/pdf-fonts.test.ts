import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pdfFontFamilyOf } from '@saljportalen/contract';
import { describe, expect, it } from 'vitest';
import { fontRuns, pdfFontFiles } from './pdf-fonts.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

describe('fontRuns', () => {
  it('gives an emoji its font and the rest of the name Noto Sans', () => {
    expect(fontRuns('Alva 🌟 från 6B')).toEqual([
      { family: 'text', text: 'Alva ' },
      { family: 'emoji', text: '🌟' },
      { family: 'text', text: ' från 6B' },
    ]);
  });

  it('keeps Latin with every diacritic, Greek and Cyrillic in one run of Noto Sans', () => {
    expect(fontRuns('Łucja Şahin-Nguyễn, Μαρία, Мария')).toEqual([{ family: 'text', text: 'Łucja Şahin-Nguyễn, Μαρία, Мария' }]);
  });

  it('keeps the spaces between Arabic words in the Arabic run, so it is laid out right to left as one', () => {
    expect(fontRuns('Ali محمد علي 2')).toEqual([
      { family: 'text', text: 'Ali ' },
      { family: 'arabic', text: 'محمد علي ' },
      { family: 'text', text: '2' },
    ]);
  });

  it('keeps an emoji sequence with its joiners and variation selector whole', () => {
    expect(fontRuns('❤️ 👩‍👧')).toEqual([
      { family: 'emoji', text: '❤️' },
      { family: 'text', text: ' ' },
      { family: 'emoji', text: '👩‍👧' },
    ]);
  });

  it('leaves a character no font draws in the run it is in, and composes a letter written in two parts', () => {
    expect(fontRuns('Li 李娜')).toEqual([{ family: 'text', text: 'Li 李娜' }]);
    expect(fontRuns('A\u030agren\r\nrad\ttvå')).toEqual([{ family: 'text', text: 'Ågren\nrad två' }]);
  });
});

describe('the coverage table packages/contract/src/pdf-font-coverage.ts', () => {
  it('matches the font files: run scripts/generate-font-coverage.mjs after changing a font', () => {
    expect(() =>
      execFileSync(process.execPath, [path.join(repoRoot, 'scripts/generate-font-coverage.mjs'), '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });

  it('says which family draws a character, and finds no family for a Chinese one', () => {
    expect(pdfFontFamilyOf('Ż')).toBe('text');
    expect(pdfFontFamilyOf('ش')).toBe('arabic');
    expect(pdfFontFamilyOf('🌟')).toBe('emoji');
    expect(pdfFontFamilyOf('李')).toBeNull();
  });

  it('gives each font file a path that exists, as the built server finds it', () => {
    const files = pdfFontFiles();
    expect(files).toHaveLength(6);
    for (const { file } of files) expect(fs.statSync(file).size).toBeGreaterThan(100_000);
  });
});

describe('centred text of several fonts', () => {
  it('wraps in the order it is written, each line centred (pdfkit alone jumbles it: "från 6BAlva")', async () => {
    const { newPdfDocument } = await import('./pdf-document.js');
    const { pdfText } = await import('./pdf-fonts.js');
    const { pdfText: readBack } = await import('../../test/pdf-tools.js');
    const doc = await newPdfDocument({ size: 'A4', margin: 50 });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => doc.on('end', resolve));
    pdfText(doc.fontSize(16), 'regular', 'Alva 🌟 från 6B säljer för klassresan till Ελλάδα 🌟 i maj', 50, 50, {
      width: 200,
      align: 'center',
    });
    const after = doc.y;
    doc.end();
    await ended;
    const text = readBack(Buffer.concat(chunks)).replace(/\s+/g, ' ').trim();
    expect(text).toBe('Alva 🌟 från 6B säljer för klassresan till Ελλάδα 🌟 i maj');
    expect(after).toBeGreaterThan(50 + 16 * 2);
  });
});
