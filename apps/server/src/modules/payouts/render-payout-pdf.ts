import { newPdfDocument, pdfBytes } from '../../lib/pdf-document.js';
import type { TReceivingAccount } from '@saljportalen/contract';
import { formatDate, formatDateTime, formatOreAsSek } from '../../lib/format.js';
import { drawPageFooters } from '../../lib/pdf-footers.js';
import { payoutAmountsOre } from '../../lib/money.js';
import { pdfText, pdfTextHeight, pdfTextWidth } from '../../lib/pdf-fonts.js';

export interface PayoutDocument {
  id: number;
  groupName: string;
  groupCode: string;
  /** Inclusive Stockholm dates, `YYYY-MM-DD`. */
  periodFrom: string;
  periodTo: string;
  status: 'draft' | 'paid';
  ordersCount: number;
  linesCount: number;
  salesOre: number;
  commissionOre: number;
  createdAt: Date;
  createdByName: string | null;
  paidAt: Date | null;
  paidByName: string | null;
  /** Where the money goes: the account it was paid to, or the group's current one for a draft (null: none yet). */
  receivingAccount: TReceivingAccount | null;
  sellers: { name: string; ordersCount: number; salesOre: number; commissionOre: number }[];
  lines: {
    bookedAt: Date;
    orderName: string;
    sellerName: string;
    product: string;
    kind: 'sale' | 'refund' | 'cancellation' | 'transfer';
    quantity: number;
    amountOre: number;
    commissionOre: number;
    /** The earlier payout of the group whose period the line's day is in: the line corrects it (decision 065). */
    correctionOf: number | null;
    /** A refund or cancellation of a line that payout settled: a deduction carried here (issue 30 point 4). */
    deductionOf: number | null;
  }[];
}

export const PAYOUT_STATUS_LABEL = { draft: 'Utkast', paid: 'Betald' } as const;
const LINE_KIND_PREFIX = { sale: '', refund: 'Återbetalning: ', cancellation: 'Makulering: ' } as const;

/** What a line is, before its product: a moved sale says which side of the move it is (decision 067). */
const linePrefix = (line: PayoutDocument['lines'][number]) =>
  line.kind === 'transfer' ? (line.amountOre < 0 ? 'Flyttad försäljning, avgår: ' : 'Flyttad försäljning: ') : LINE_KIND_PREFIX[line.kind];

/** A treasurer files this: every figure to the öre, so the columns add up to the totals. */
const sek = (ore: number) => formatOreAsSek(ore, { decimals: 2 });

const MARGIN = 50;
const FOOTER_HEIGHT = 24;
const CELL_PADDING = 3;
const INK = '#1f2933';
const MUTED = '#5f6b7a';
const RULE = '#c9d1da';
const HEADER_FILL = '#eef2f6';

interface Column {
  header: string;
  width: number;
  align?: 'left' | 'right';
}

/** What a line says above its product: it corrects a payout's period, or deducts from a payout. */
function lineNote(line: PayoutDocument['lines'][number]): string | null {
  if (line.correctionOf !== null) return `Rättelse av avräkning nr ${line.correctionOf}`;
  if (line.deductionOf !== null) return `Avdrag från avräkning nr ${line.deductionOf}`;
  return null;
}

/**
 * 'Rättelse av avräkning nr 3', 'Avdrag från avräkning nr 2': per earlier payout the lines of this
 * one correct or deduct from, how many and their commission, so a treasurer sees at once what
 * changed in a period already settled and what is taken back.
 */
function correctionFacts(lines: PayoutDocument['lines']): [string, string][] {
  const notes = new Map<string, { lines: number; commissionOre: number }>();
  for (const line of lines) {
    const note = lineNote(line);
    if (note === null) continue;
    const sum = notes.get(note) ?? { lines: 0, commissionOre: 0 };
    sum.lines += 1;
    sum.commissionOre += line.commissionOre;
    notes.set(note, sum);
  }
  const order = (note: string) => [note.startsWith('Avdrag') ? 1 : 0, Number(note.slice(note.lastIndexOf(' ') + 1))] as const;
  return [...notes]
    .sort(([a], [b]) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1])
    .map(([note, sum]) => [note, `${sum.lines === 1 ? '1 orderrad' : `${sum.lines} orderrader`}, ${sek(sum.commissionOre)} i provision`]);
}

/** A payout that pays nothing out but is owed back says so, with the amount the class pays back. */
const toPayRow = (toPayOre: number): [string, string] =>
  toPayOre < 0 ? ['Att få tillbaka', sek(-toPayOre)] : ['Att betala', sek(toPayOre)];

/**
 * The payout as an A4 PDF: summary, commission per seller, every settled line, totals. Lines and
 * totals are exact to the öre; an 'Öresavrundning' row then brings the commission to 'Att betala'
 * in whole kronor, the amount the web shows (lib/money.ts payoutAmountsOre).
 */
export async function renderPayoutPdf(payout: PayoutDocument): Promise<Buffer> {
  const amounts = payoutAmountsOre(payout.commissionOre);
  const doc = await newPdfDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_HEIGHT },
    bufferPages: true,
    lang: 'sv-SE',
    info: {
      Title: `Avräkning ${payout.id} – ${payout.groupName}`,
      Author: 'Säljportalen',
      Subject: `Avräkning för ${payout.groupName}, ${payout.periodFrom} – ${payout.periodTo}`,
      CreationDate: new Date(),
    },
  });
  const finished = pdfBytes(doc);

  const left = doc.page.margins.left;
  const contentWidth = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const pageBottom = () => doc.page.height - doc.page.margins.bottom;

  // Title and who/what/when.
  pdfText(doc.fillColor(INK).fontSize(22), 'bold', 'Avräkning', left, MARGIN);
  pdfText(doc.fontSize(11).fillColor(MUTED), 'regular', `Nr ${payout.id} · Säljportalen`);
  doc.moveDown(1);

  const facts: [string, string][] = [
    ['Grupp', `${payout.groupName} (gruppkod ${payout.groupCode})`],
    ['Period', `${payout.periodFrom} – ${payout.periodTo}`],
    ['Status', PAYOUT_STATUS_LABEL[payout.status]],
    ['Skapad', withName(formatDateTime(payout.createdAt), payout.createdByName)],
    ['Betald', payout.paidAt ? withName(formatDateTime(payout.paidAt), payout.paidByName) : 'Ej betald ännu'],
    ['Mottagarkonto', payout.receivingAccount?.display ?? 'Saknas: läggs in på gruppens sida'],
    ['Kontohavare', payout.receivingAccount?.holder_name ?? 'Saknas'],
    ['Ordrar', String(payout.ordersCount)],
    ['Orderrader', String(payout.linesCount)],
    ['Försäljning inkl. moms', sek(payout.salesOre)],
    ['Provision', sek(amounts.commissionOre)],
    ['Öresavrundning', sek(amounts.roundingOre)],
    ...correctionFacts(payout.lines),
  ];
  doc.fontSize(10);
  for (const [label, value] of facts) {
    const y = doc.y;
    pdfText(doc.fillColor(MUTED), 'regular', label, left, y, { width: 140 });
    pdfText(doc.fillColor(INK), 'regular', value, left + 140, y, { width: contentWidth - 140 });
    doc.moveDown(0.25);
  }
  doc.moveDown(0.5);
  const boxY = doc.y;
  doc.rect(left, boxY, contentWidth, 34).fill(HEADER_FILL);
  doc.fillColor(INK).fontSize(13);
  const [toPayLabel, toPayAmount] = toPayRow(amounts.toPayOre);
  pdfText(doc, 'bold', toPayLabel, left + 10, boxY + 11, { width: contentWidth / 2 });
  pdfText(doc, 'bold', toPayAmount, left + contentWidth / 2, boxY + 11, { width: contentWidth / 2 - 10, align: 'right' });
  doc.y = boxY + 34;
  doc.moveDown(1.5);

  // A table whose header comes back on every page it continues on.
  /** `footRows`: the totals row, and any rows that follow it (öresavrundning, att betala), in bold. */
  const drawTable = (title: string, columns: Column[], rows: string[][], footRows: string[][]) => {
    doc.fontSize(9);
    const heightOf = (cells: string[], bold: boolean) =>
      Math.max(
        ...cells.map((cell, i) => pdfTextHeight(doc, bold ? 'bold' : 'regular', cell, { width: columns[i]!.width - 2 * CELL_PADDING })),
      ) +
      2 * CELL_PADDING;
    const drawRow = (cells: string[], options: { bold?: boolean; fill?: string } = {}) => {
      const height = heightOf(cells, options.bold ?? false);
      const y = doc.y;
      if (options.fill) doc.rect(left, y, contentWidth, height).fill(options.fill);
      doc.fillColor(INK);
      let x = left;
      cells.forEach((cell, i) => {
        const column = columns[i]!;
        pdfText(doc, options.bold ? 'bold' : 'regular', cell, x + CELL_PADDING, y + CELL_PADDING, {
          width: column.width - 2 * CELL_PADDING,
          align: column.align ?? 'left',
        });
        x += column.width;
      });
      doc
        .moveTo(left, y + height)
        .lineTo(left + contentWidth, y + height)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
      doc.y = y + height;
    };
    const headers = columns.map((column) => column.header);
    const drawHeader = () => drawRow(headers, { bold: true, fill: HEADER_FILL });
    const startPageIfNoRoomFor = (height: number) => {
      if (doc.y + height <= pageBottom()) return false;
      doc.addPage();
      doc.y = doc.page.margins.top;
      return true;
    };

    // The title never stands alone at the foot of a page: it needs its header and a first row.
    const firstRow = rows[0] ?? footRows[0]!;
    startPageIfNoRoomFor(24 + heightOf(headers, true) + heightOf(firstRow, false));
    pdfText(doc.fontSize(13).fillColor(INK), 'bold', title, left, doc.y);
    doc.moveDown(0.4);
    doc.fontSize(9);
    drawHeader();
    for (const row of [...rows, ...footRows]) {
      const isTotals = footRows.includes(row);
      if (startPageIfNoRoomFor(heightOf(row, isTotals))) {
        pdfText(doc.fontSize(9).fillColor(MUTED), 'regular', `${title} (forts.)`, left, doc.y);
        doc.moveDown(0.3);
        drawHeader();
      }
      drawRow(row, isTotals ? { bold: true } : {});
    }
    doc.moveDown(1.5);
  };

  const sellerColumns: Column[] = [
    { header: 'Säljare', width: contentWidth - 255 },
    { header: 'Ordrar', width: 55, align: 'right' },
    { header: 'Försäljning', width: 100, align: 'right' },
    { header: 'Provision', width: 100, align: 'right' },
  ];
  drawTable(
    'Per säljare',
    sellerColumns,
    payout.sellers.map((seller) => [seller.name, String(seller.ordersCount), sek(seller.salesOre), sek(seller.commissionOre)]),
    [
      ['Totalt', String(payout.ordersCount), sek(payout.salesOre), sek(payout.commissionOre)],
      ['Öresavrundning', '', '', sek(amounts.roundingOre)],
      [toPayRow(amounts.toPayOre)[0], '', '', toPayRow(amounts.toPayOre)[1]],
    ],
  );

  // An order's name is one word ('#1042', 'SP-2026-0042'): its column is as wide as the widest,
  // within bounds, so a name wraps between words if at all, never inside one (issue 33 point 8).
  doc.fontSize(9);
  const widestOrderName = Math.max(0, ...payout.lines.map((line) => pdfTextWidth(doc, 'regular', line.orderName)));
  const orderWidth = Math.min(Math.max(48, Math.ceil(widestOrderName) + 2 * CELL_PADDING + 1), 110);
  const lineColumns: Column[] = [
    { header: 'Datum', width: 58 },
    { header: 'Order', width: orderWidth },
    { header: 'Säljare', width: 88 },
    { header: 'Produkt', width: contentWidth - 58 - orderWidth - 88 - 34 - 68 - 62 },
    { header: 'Antal', width: 34, align: 'right' },
    { header: 'Belopp', width: 68, align: 'right' },
    { header: 'Provision', width: 62, align: 'right' },
  ];
  drawTable(
    'Orderrader',
    lineColumns,
    payout.lines.map((line) => [
      formatDate(line.bookedAt),
      line.orderName,
      line.sellerName,
      (lineNote(line) === null ? '' : `${lineNote(line)}\n`) + linePrefix(line) + line.product,
      String(line.quantity),
      sek(line.amountOre),
      sek(line.commissionOre),
    ]),
    [['Totalt', '', '', '', '', sek(payout.salesOre), sek(payout.commissionOre)]],
  );

  drawPageFooters(doc, {
    text: (page, pages) =>
      `Avräkning nr ${payout.id} · ${payout.groupName} · ${payout.periodFrom} – ${payout.periodTo} · Sida ${page} av ${pages}`,
    color: MUTED,
    y: doc.page.height - MARGIN,
  });
  doc.end();
  return finished;
}

function withName(when: string, name: string | null): string {
  return name ? `${when} av ${name}` : when;
}
