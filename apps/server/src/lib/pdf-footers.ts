import { pdfText } from './pdf-fonts.js';

/**
 * A footer line on every page of a pdfkit document made with `bufferPages: true`, written last,
 * when the page count is known. `text` gets the page's number from 1 and the count; the line is
 * drawn in the portal's font (lib/pdf-fonts.ts) at 8 pt, centred between the side margins, at `y` on each page.
 */
export function drawPageFooters(
  doc: PDFKit.PDFDocument,
  options: { text: (page: number, pages: number) => string; color: string; y: number },
): void {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    // Text below the bottom margin would make pdfkit start a new page; the footer lives there.
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    pdfText(
      doc.fontSize(8).fillColor(options.color),
      'regular',
      options.text(index - range.start + 1, range.count),
      doc.page.margins.left,
      options.y,
      {
        width: doc.page.width - doc.page.margins.left - doc.page.margins.right,
        align: 'center',
        lineBreak: false,
      },
    );
    doc.page.margins.bottom = bottomMargin;
  }
}
