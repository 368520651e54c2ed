import { newPdfDocument, pdfBytes } from '../../lib/pdf-document.js';
import QRCode from 'qrcode';
import { formatDate, formatOreAsSek } from '../../lib/format.js';
import { drawPageFooters } from '../../lib/pdf-footers.js';
import { pdfText, pdfTextHeight } from '../../lib/pdf-fonts.js';

export interface CatalogProduct {
  title: string;
  description: string;
  priceOre: number;
  /** PNG or JPEG bytes, or null to leave the picture out. */
  image: Buffer | null;
}

export interface CatalogPdfData {
  /** The name the family chose for buyers (publicSellerName); the group's name (class and school) is not printed. */
  sellerName: string;
  /** What the class collects for (issue 20), printed as 'Vi samlar till: …'; null without a class goal. */
  goalPurpose?: string | null;
  personalLink: string;
  products: CatalogProduct[];
  createdAt: Date;
}

const MARGIN = 50;
const QR_SIZE = 130;
const IMAGE_SIZE = 80;
const PRICE_WIDTH = 80;
const GAP = 14;
const GREEN = '#1f6f43';
const GREY = '#555555';
const RULE = '#d0d7d2';

/**
 * The seller's printable A4 catalogue: who sells (by the name the family chose), the personal link as
 * text and as a QR code, then every product with its price. A neighbour who gets the paper
 * scans the code or types the link; both reach the shop with the seller's code.
 */
export async function renderCatalogPdf(data: CatalogPdfData): Promise<Buffer> {
  const qrCode = await QRCode.toBuffer(data.personalLink, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 360 });
  const doc = await newPdfDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    lang: 'sv-SE',
    displayTitle: true,
    info: {
      Title: `Produktkatalog – ${data.sellerName}`,
      Author: data.sellerName,
      Creator: 'Säljportalen',
    },
  });
  const finished = pdfBytes(doc);

  drawHeader(doc, data, qrCode);
  drawProducts(doc, data.products);
  drawFooters(doc, data);
  doc.end();
  return finished;
}

function drawHeader(doc: PDFKit.PDFDocument, data: CatalogPdfData, qrCode: Buffer) {
  const left = doc.page.margins.left;
  const top = doc.page.margins.top;
  const qrLeft = doc.page.width - doc.page.margins.right - QR_SIZE;
  const textWidth = qrLeft - left - GAP;

  doc.image(qrCode, qrLeft, top, { width: QR_SIZE });
  pdfText(doc.fontSize(9).fillColor(GREY), 'regular', 'Skanna för att handla', qrLeft, top + QR_SIZE + 2, {
    width: QR_SIZE,
    align: 'center',
  });

  pdfText(doc.fontSize(11).fillColor(GREEN), 'bold', 'PRODUKTKATALOG', left, top, { width: textWidth, characterSpacing: 1 });
  pdfText(doc.moveDown(0.3).fontSize(24).fillColor('black'), 'bold', data.sellerName, { width: textWidth });
  // No class or school: with a first name they would point out the child to anyone holding the paper (decision 037).
  // What the class collects for is printed: it names a purpose, not a class.
  if (data.goalPurpose) {
    pdfText(doc.moveDown(0.3).fontSize(12).fillColor(GREEN), 'bold', `Vi samlar till: ${data.goalPurpose}`, { width: textWidth });
  }
  pdfText(
    doc.moveDown(0.8).fontSize(11).fillColor('black'),
    'regular',
    'Hej! Jag säljer hållbara produkter för att samla in pengar till min klass eller förening. Beställ via min personliga länk eller QR-koden, så går en del av varje köp till oss.',
    { width: textWidth },
  );
  pdfText(doc.moveDown(0.5).fillColor(GREEN), 'bold', data.personalLink, { width: textWidth, link: data.personalLink, underline: true });

  const ruleY = Math.max(doc.y, top + QR_SIZE + 16) + GAP;
  doc
    .moveTo(left, ruleY)
    .lineTo(doc.page.width - doc.page.margins.right, ruleY)
    .strokeColor(RULE)
    .lineWidth(1)
    .stroke();
  doc.x = left;
  doc.y = ruleY + GAP;
}

function drawProducts(doc: PDFKit.PDFDocument, products: CatalogProduct[]) {
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  // A picture column only when some product has a picture, so a catalogue without any stays compact.
  const textLeft = products.some((product) => product.image) ? left + IMAGE_SIZE + GAP : left;
  const textWidth = right - PRICE_WIDTH - GAP - textLeft;

  if (products.length === 0) {
    pdfText(doc.fontSize(12).fillColor(GREY), 'regular', 'Det finns inga produkter i katalogen just nu.', left, doc.y);
    return;
  }

  for (const product of products) {
    const { title, description } = product;
    const titleHeight = pdfTextHeight(doc.fontSize(13), 'bold', title, { width: textWidth });
    const descriptionHeight = description ? pdfTextHeight(doc.fontSize(10), 'regular', description, { width: textWidth }) + 4 : 0;
    const rowHeight = Math.max(product.image ? IMAGE_SIZE : 0, titleHeight + descriptionHeight);
    if (doc.y + rowHeight > doc.page.height - doc.page.margins.bottom) doc.addPage();

    const rowTop = doc.y;
    if (product.image) drawImage(doc, product.image, left, rowTop);
    pdfText(doc.fontSize(13).fillColor('black'), 'bold', formatOreAsSek(product.priceOre), right - PRICE_WIDTH, rowTop, {
      width: PRICE_WIDTH,
      align: 'right',
    });
    pdfText(doc, 'bold', title, textLeft, rowTop, { width: textWidth });
    if (description) pdfText(doc.moveDown(0.2).fontSize(10).fillColor(GREY), 'regular', description, textLeft, doc.y, { width: textWidth });

    const rowBottom = rowTop + rowHeight + GAP / 2;
    doc.moveTo(left, rowBottom).lineTo(right, rowBottom).strokeColor(RULE).lineWidth(0.5).stroke();
    doc.x = left;
    doc.y = rowBottom + GAP / 2;
  }
}

/** A picture pdfkit cannot read (corrupt or truncated) is left out rather than failing the catalogue. */
function drawImage(doc: PDFKit.PDFDocument, image: Buffer, x: number, y: number) {
  try {
    doc.image(image, x, y, { fit: [IMAGE_SIZE, IMAGE_SIZE], align: 'center', valign: 'center' });
  } catch {
    // The row keeps its space; the title and price still print.
  }
}

function drawFooters(doc: PDFKit.PDFDocument, data: CatalogPdfData) {
  drawPageFooters(doc, {
    text: (page, pages) => `${data.sellerName} · ${formatDate(data.createdAt)} · Sida ${page} av ${pages}`,
    color: GREY,
    y: doc.page.height - doc.page.margins.bottom / 2 - 4,
  });
}
