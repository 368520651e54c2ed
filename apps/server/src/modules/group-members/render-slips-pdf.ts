import { newPdfDocument, pdfBytes } from '../../lib/pdf-document.js';
import { pdfText } from '../../lib/pdf-fonts.js';

export interface SignInSlip {
  fullName: string;
  username: string;
  code: string;
}

const MARGIN = 40;
const SLIPS_PER_PAGE = 4;
const GREEN = '#166534';
const GREY = '#4b5563';

/** '6 december 2026': the day a slip's code stops working, as a Swede writes it. */
export const swedishLongDate = (instant: Date) =>
  new Intl.DateTimeFormat('sv-SE', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Stockholm' }).format(instant);

/**
 * The teacher's A4 sheets of sign-in slips (issue 31), four to a page with a dashed line to cut
 * along: on each the class, the pupil's name, the username, the one-time code, the day it stops
 * working and where to sign in, in the portal's fonts (lib/pdf-fonts.ts), as the other PDFs.
 */
export async function renderSlipsPdf(data: {
  groupName: string;
  slips: SignInSlip[];
  expiresAt: Date;
  signInUrl: string;
}): Promise<Buffer> {
  const doc = await newPdfDocument({
    size: 'A4',
    margin: MARGIN,
    lang: 'sv-SE',
    displayTitle: true,
    info: { Title: `Inloggningslappar – ${data.groupName}`, Creator: 'Säljportalen' },
  });
  const finished = pdfBytes(doc);
  const width = doc.page.width - 2 * MARGIN;
  const slipHeight = (doc.page.height - 2 * MARGIN) / SLIPS_PER_PAGE;
  const expires = swedishLongDate(data.expiresAt);
  data.slips.forEach((slip, index) => {
    if (index > 0 && index % SLIPS_PER_PAGE === 0) doc.addPage();
    const top = MARGIN + (index % SLIPS_PER_PAGE) * slipHeight;
    const left = MARGIN + 12;
    if (index % SLIPS_PER_PAGE > 0) {
      doc
        .save()
        .moveTo(MARGIN, top)
        .lineTo(MARGIN + width, top)
        .dash(4, { space: 4 })
        .strokeColor(GREY)
        .stroke()
        .restore();
    }
    pdfText(doc.fontSize(10).fillColor(GREEN), 'bold', `SÄLJPORTALEN – ${data.groupName}`, left, top + 14, {
      width: width - 24,
      lineBreak: false,
    });
    pdfText(doc.fontSize(18).fillColor('black'), 'bold', slip.fullName, left, top + 32, { width: width - 24 });
    pdfText(doc.fontSize(12), 'regular', 'Användarnamn:', left, top + 62, { continued: true });
    pdfText(doc, 'bold', ` ${slip.username}`);
    pdfText(doc, 'regular', 'Engångskod:', left, top + 80, { continued: true });
    pdfText(doc, 'bold', ` ${slip.code}`);
    pdfText(
      doc.fontSize(10).fillColor(GREY),
      'regular',
      `Gå till ${data.signInUrl}, skriv ditt användarnamn och engångskoden och välj ett eget lösenord. ` +
        `Koden fungerar en gång, till och med ${expires}. Sedan loggar du in med användarnamnet och lösenordet.`,
      left,
      top + 102,
      { width: width - 24 },
    );
  });
  doc.end();
  return finished;
}
