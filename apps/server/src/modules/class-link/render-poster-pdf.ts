import QRCode from 'qrcode';
import { formatOreAsSek } from '../../lib/format.js';
import { newPdfDocument, pdfBytes } from '../../lib/pdf-document.js';
import { pdfText } from '../../lib/pdf-fonts.js';
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
 * It names no pupil: orders through it are the class's. Written in the portal's fonts
 * (lib/pdf-fonts.ts), so the class's name prints as it is written.
 */
export async function renderPosterPdf(data: PosterData): Promise<Buffer> {
  const qrCode = await QRCode.toBuffer(data.classLink, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 900 });
  const doc = await newPdfDocument({
    size: 'A4',
    margin: MARGIN,
    lang: 'sv-SE',
    displayTitle: true,
    info: { Title: `Affisch – ${data.groupName}`, Creator: 'Säljportalen' },
  });
  const finished = pdfBytes(doc);
  const centred = { width: doc.page.width - 2 * MARGIN, align: 'center' as const };

  pdfText(doc.fontSize(14).fillColor(GREEN), 'bold', 'SÄLJPORTALEN', MARGIN, MARGIN, { ...centred, characterSpacing: 2 });
  doc.moveDown(0.8);
  pdfText(doc.fontSize(34).fillColor('black'), 'bold', `Stötta ${data.groupName}!`, centred);
  doc.moveDown(0.5);
  const appeal = data.goal
    ? `Vi samlar till ${data.goal.purpose}. Handla hållbara produkter, så går en del av priset till klassen.`
    : 'Handla hållbara produkter, så går en del av priset till klassens insamling.';
  pdfText(doc.fontSize(16).fillColor(GREY), 'regular', appeal, centred);
  if (data.goal) {
    doc.moveDown(0.5);
    pdfText(doc.fontSize(18).fillColor(GREEN), 'bold', `Vårt mål: ${formatOreAsSek(data.goal.amountOre)}`, centred);
  }
  const qrTop = Math.max(doc.y + 24, 330);
  doc.image(qrCode, (doc.page.width - QR_SIZE) / 2, qrTop, { width: QR_SIZE });
  pdfText(doc.fontSize(16).fillColor('black'), 'bold', 'Skanna koden med mobilens kamera', MARGIN, qrTop + QR_SIZE + 12, centred);
  pdfText(doc.fontSize(12).fillColor(GREY), 'regular', `eller gå till ${data.classLink}`, centred);
  doc.end();
  return finished;
}
