/**
 * Reads PDFs the way a person's tools would, with poppler and zbar: the text pdftotext sees,
 * the QR codes a phone camera would find on the printed page, the pictures embedded.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

function withPdfFile<T>(pdf: Buffer | Uint8Array, work: (file: string, dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-pdf-'));
  try {
    const file = path.join(dir, 'document.pdf');
    fs.writeFileSync(file, pdf);
    return work(file, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of every page, as `pdftotext -layout` extracts it (UTF-8). */
export function pdfText(pdf: Buffer | Uint8Array): string {
  return withPdfFile(pdf, (file) => execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }));
}

export function pdfPageCount(pdf: Buffer | Uint8Array): number {
  return withPdfFile(pdf, (file) => {
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
  });
}

/** The QR codes found on the first page rendered at 150 dpi, as a printout scanned by a phone. */
export function pdfQrCodes(pdf: Buffer | Uint8Array): string[] {
  return withPdfFile(pdf, (file, dir) => {
    execFileSync('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', file, path.join(dir, 'page')]);
    const page = fs.readdirSync(dir).find((name) => name.startsWith('page') && name.endsWith('.png'))!;
    const output = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', path.join(dir, page)], {
      encoding: 'utf8',
      // zbar complains on stderr when there is no D-Bus; only its findings matter.
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return output.split('\n').filter(Boolean);
  });
}

/** How many pictures the PDF embeds (`pdfimages -list`, soft masks not counted). */
export function pdfImageCount(pdf: Buffer | Uint8Array): number {
  return withPdfFile(pdf, (file) => {
    const rows = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean);
    return rows.filter((row) => row.trim().split(/\s+/)[2] === 'image').length;
  });
}

/** A plain one-colour PNG, a product picture that no QR reader mistakes for a code. */
export function solidColourPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])));
    return Buffer.concat([length, Buffer.from(type, 'ascii'), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
