import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('pdfkit', () => {
  it('is imported by lib/pdf-document.ts alone, so that a start loads none of it (issue 34 point 1)', () => {
    const importers = fs
      .readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => /from 'pdfkit'|import\('pdfkit'\)/.test(fs.readFileSync(path.join(src, file), 'utf8')));
    expect(importers).toEqual([path.join('lib', 'pdf-document.ts')]);
  });
});
