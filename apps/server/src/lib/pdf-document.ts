import { registerPdfFonts } from './pdf-fonts.js';

/**
 * pdfkit, loaded when the first PDF is made rather than when the server starts: it (with fontkit
 * and its font tables) is about a quarter of a second of a start's module loading, and most
 * processes make no PDF for a while (issue 34 point 1). The portal's fonts are registered on every
 * document (lib/pdf-fonts.ts): write its text with pdfText, not doc.text.
 */
export async function newPdfDocument(options: PDFKit.PDFDocumentOptions): Promise<PDFKit.PDFDocument> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument(options);
  await registerPdfFonts(doc);
  return doc;
}

/** The document's bytes once it has ended: called right after it is made, before anything is written. */
export function pdfBytes(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
