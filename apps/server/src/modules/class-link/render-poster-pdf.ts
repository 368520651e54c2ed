import QRCode from 'qrcode';
import { formatOreAsSek } from '../../lib/format.js';
import { newPdfDocument } from '../../lib/pdf-document.js';
import { toWinAnsi } from '../../lib/pdf-text.js';
import type { StoredGoal } from '../figures/group-goal.js';

export interface PosterData {
  groupName: string;
  goal: StoredGoal | null;
  classLink: string;
}

const MARGIN = 56;
const QR_SIZE = 300;
const GREEN = '#1f6f43';
const GREY = '#444444';

/**
 * The class poster (issue 32): one A4 page for the school's entrance, the class's own notice board
 * or a shop window, with the class, its goal, a large QR code of the class link and a short appeal.
 * It names no pupil: orders through it are the class's.
 */
export async function renderPosterPdf(data: PosterData): Promise<Buffer> {
  const qrCode = await QRCode.toBuffer(data.classLink, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 900 });
  const doc = await newPdfDocument({
    size: 'A4',
    margin: MARGIN,
    lang: 'sv-SE',
    displayTitle: true,
    info: { Title: toWinAnsi(`Affisch – ${data.groupName}`), Creator: 'Säljportalen' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 2 * MARGIN;
  const centred = { width, align: 'center' as const };

  doc
    .font('Helvetica-Bold')
    .fontSize(14)
    .fillColor(GREEN)
    .text('SÄLJPORTALEN', MARGIN, MARGIN, { ...centred, characterSpacing: 2 });
  doc.moveDown(0.8);
  doc
    .font('Helvetica-Bold')
    .fontSize(34)
    .fillColor('black')
    .text(toWinAnsi(`Stötta ${data.groupName}!`), centred);
  doc.moveDown(0.5);
  const appeal = data.goal
    ? `Vi samlar till ${data.goal.purpose}. Handla hållbara produkter, så går en del av priset till klassen.`
    : 'Handla hållbara produkter, så går en del av priset till klassens insamling.';
  doc.font('Helvetica').fontSize(16).fillColor(GREY).text(toWinAnsi(appeal), centred);
  if (data.goal) {
    doc.moveDown(0.5);
    doc
      .font('Helvetica-Bold')
      .fontSize(18)
      .fillColor(GREEN)
      .text(toWinAnsi(`Vårt mål: ${formatOreAsSek(data.goal.amountOre)}`), centred);
  }
  const qrTop = Math.max(doc.y + 24, 330);
  doc.image(qrCode, (doc.page.width - QR_SIZE) / 2, qrTop, { width: QR_SIZE });
  doc
    .font('Helvetica-Bold')
    .fontSize(16)
    .fillColor('black')
    .text('Skanna koden med mobilens kamera', MARGIN, qrTop + QR_SIZE + 12, centred);
  doc
    .font('Helvetica')
    .fontSize(12)
    .fillColor(GREY)
    .text(toWinAnsi(`eller gå till ${data.classLink}`), centred);
  doc.end();
  return finished;
}
