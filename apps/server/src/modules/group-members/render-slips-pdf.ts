import { newPdfDocument } from '../../lib/pdf-document.js';
import { toWinAnsi } from '../../lib/pdf-text.js';

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
 * working and where to sign in. The standard Helvetica with WinAnsi text, as the other PDFs.
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
    info: { Title: toWinAnsi(`Inloggningslappar – ${data.groupName}`), Creator: 'Säljportalen' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
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
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor(GREEN)
      .text(toWinAnsi(`SÄLJPORTALEN – ${data.groupName}`), left, top + 14, { width: width - 24, lineBreak: false });
    doc
      .font('Helvetica-Bold')
      .fontSize(18)
      .fillColor('black')
      .text(toWinAnsi(slip.fullName), left, top + 32, { width: width - 24 });
    doc
      .font('Helvetica')
      .fontSize(12)
      .text(toWinAnsi('Användarnamn:'), left, top + 62, { continued: true });
    doc.font('Helvetica-Bold').text(` ${slip.username}`);
    doc.font('Helvetica').text(toWinAnsi('Engångskod:'), left, top + 80, { continued: true });
    doc.font('Helvetica-Bold').text(` ${slip.code}`);
    doc
      .font('Helvetica')
      .fontSize(10)
      .fillColor(GREY)
      .text(
        toWinAnsi(
          `Gå till ${data.signInUrl}, skriv ditt användarnamn och engångskoden och välj ett eget lösenord. ` +
            `Koden fungerar en gång, till och med ${expires}. Sedan loggar du in med användarnamnet och lösenordet.`,
        ),
        left,
        top + 102,
        { width: width - 24 },
      );
  });
  doc.end();
  return finished;
}
