import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPayoutPdf, type PayoutDocument } from './render-payout-pdf.js';

function readPdf(pdf: Buffer) {
  const file = path.join(os.tmpdir(), `avrakning-unit-${crypto.randomUUID()}.pdf`);
  fs.writeFileSync(file, pdf);
  try {
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('/usr/bin/pdfinfo', [file], { encoding: 'utf8' }))![1]);
    const pageTexts = Array.from({ length: pages }, (_, i) =>
      execFileSync('/usr/bin/pdftotext', ['-layout', '-f', String(i + 1), '-l', String(i + 1), file, '-'], { encoding: 'utf8' }).replace(
        /[\u00a0\u202f]/g,
        ' ',
      ),
    );
    return { pages, pageTexts, text: pageTexts.join('\n') };
  } finally {
    fs.rmSync(file);
  }
}

const LONG_TITLE = 'Presentförpackning med bivaxdukar, ekologiskt kaffe, svensk honung och handgjord tvål med havtorn från Gotland';

function document(lineCount: number): PayoutDocument {
  const lines = Array.from({ length: lineCount }, (_, i) => ({
    bookedAt: new Date(Date.UTC(2025, 9, 1 + (i % 30), 21, 30)),
    orderName: `#${2000 + i}`,
    sellerName: i % 3 === 0 ? 'Åke Öhrström-Ängqvist' : 'Märta Lind',
    product: i % 5 === 0 ? LONG_TITLE : 'Tvål med havtorn',
    kind: (i % 7 === 6 ? 'refund' : 'sale') as 'sale' | 'refund',
    quantity: 1,
    amountOre: i % 7 === 6 ? -8_900 : 14_900,
    commissionOre: i % 7 === 6 ? -2_225 : 3_725,
    correctionOf: null as number | null,
    deductionOf: null as number | null,
  }));
  return {
    id: 42,
    groupName: 'Klass 4Ä Älvskolan',
    groupCode: 'ALV4A1',
    periodFrom: '2025-10-01',
    periodTo: '2025-10-31',
    status: 'paid',
    ordersCount: lineCount,
    linesCount: lineCount,
    salesOre: lines.reduce((sum, line) => sum + line.amountOre, 0),
    commissionOre: lines.reduce((sum, line) => sum + line.commissionOre, 0),
    createdAt: new Date('2025-11-01T08:15:00Z'),
    createdByName: 'Sara Superadmin',
    paidAt: new Date('2025-11-03T12:00:00Z'),
    paidByName: null,
    receivingAccount: { display: 'Bankgiro 5050-1055', holder_name: 'Älvskolans föräldraförening' },
    sellers: [
      { name: 'Åke Öhrström-Ängqvist', ordersCount: 2, salesOre: 100, commissionOre: 25 },
      { name: 'Märta Lind', ordersCount: 1, salesOre: 50, commissionOre: 12 },
    ],
    lines,
  };
}

describe('renderPayoutPdf', () => {
  it('writes Swedish text, dates in Stockholm time and amounts to the öre', async () => {
    const { text } = readPdf(await renderPayoutPdf(document(14)));
    expect(text).toContain('Avräkning');
    expect(text).toContain('Klass 4Ä Älvskolan (gruppkod ALV4A1)');
    expect(text).toContain('2025-10-01 – 2025-10-31');
    expect(text).toMatch(/Status\s+Betald/);
    expect(text).toMatch(/Skapad\s+2025-11-01 09:15 av Sara Superadmin/);
    expect(text).toMatch(/Betald\s+2025-11-03 13:00/);
    expect(text).toMatch(/Mottagarkonto\s+Bankgiro 5050-1055/);
    expect(text).toMatch(/Kontohavare\s+Älvskolans föräldraförening/);
    expect(text).toContain('Åke Öhrström-Ängqvist');
    // Noto Sans is wider than Helvetica was: the line's product may wrap in its column.
    expect(text).toMatch(/Återbetalning: Tvål med\s[\s\S]*?havtorn/);
    expect(text).toMatch(/-89,00 kr\s+-22,25 kr/);
    // 21:30 UTC on 1 October is 23:30 the same day in Stockholm; on 31 October (CET) it is still the 31st.
    expect(text).toMatch(/2025-10-01\s+#2000/);
    expect(text).not.toMatch(/2025-10-02\s+#2000/);
  });

  it('marks a deduction from an earlier payout, and says what the class pays back instead of a negative amount', async () => {
    const stored = document(2);
    const refund = { ...stored.lines[0]!, kind: 'refund' as const, amountOre: -20_000, commissionOre: -5_000, deductionOf: 7 };
    const owedBack = { ...stored, lines: [refund], salesOre: -20_000, commissionOre: -5_000 };
    const text = readPdf(await renderPayoutPdf(owedBack)).text;
    expect(text).toMatch(/Avdrag från avräkning nr 7\s+1 orderrad, -50,00 kr i provision/);
    // Once among the facts, once above the line's product.
    expect(text.split('Avdrag från avräkning nr 7').length - 1).toBe(2);
    expect(text).toMatch(/Att få tillbaka\s+50,00 kr/);
    expect(text).not.toContain('Att betala');
  });

  it('says where the money goes is missing while the group has no account', async () => {
    const { text } = readPdf(await renderPayoutPdf({ ...document(2), status: 'draft', paidAt: null, receivingAccount: null }));
    expect(text).toMatch(/Mottagarkonto\s+Saknas: läggs in på gruppens sida/);
  });

  it('breaks a long list over pages with the header repeated, wrapped rows kept whole, and page numbers', async () => {
    const payout = document(160);
    const { pages, pageTexts, text } = readPdf(await renderPayoutPdf(payout));
    expect(pages).toBeGreaterThan(3);
    pageTexts.forEach((page, i) => {
      expect(page).toContain(`Sida ${i + 1} av ${pages}`);
      if (i > 0) expect(page).toMatch(/Orderrader \(forts\.\)\s+Datum\s+Order\s+Säljare\s+Produkt/);
    });
    for (const line of payout.lines) expect(text).toContain(line.orderName);
    // A wrapped product name ends on the same page as it starts.
    for (const page of pageTexts) {
      expect(page.split('Presentförpackning').length).toBe(page.split('från Gotland').length);
    }
    expect(pageTexts.at(-1)).toMatch(/Totalt\s+[\d ]+,\d\d kr\s+[\d ]+,\d\d kr/);
  });
});

describe('renderPayoutPdf with corrections of earlier payouts', () => {
  it('marks each correcting line and sums them per corrected payout among the facts', async () => {
    const payout = document(4);
    payout.lines[1] = { ...payout.lines[1]!, kind: 'cancellation', amountOre: -9_900, commissionOre: -2_500, correctionOf: 3 };
    payout.lines[2] = { ...payout.lines[2]!, correctionOf: 3 };
    const { text } = readPdf(await renderPayoutPdf(payout));
    expect(text).toMatch(/Rättelse av avräkning nr 3\s+2 orderrader, 12,25 kr i provision/);
    // Each correcting line says so above its product; the facts say it once more.
    expect(text.match(/Rättelse av avräkning nr 3/g)).toHaveLength(3);
    expect(text).toMatch(/Rättelse av avräkning nr 3\s[\s\S]*Makulering: /);
  });
});

describe('renderPayoutPdf with long order names', () => {
  it('keeps each order name whole on its line: the column is as wide as the widest name', async () => {
    const payout = document(3);
    payout.lines[0]!.orderName = 'SP-2026-004217';
    payout.lines[1]!.orderName = '#1001-RETUR';
    const { text } = readPdf(await renderPayoutPdf(payout));
    expect(text).toContain('SP-2026-004217');
    expect(text).toContain('#1001-RETUR');
  });
});

describe('renderPayoutPdf with names beyond Swedish letters', () => {
  it('writes them exactly as they are written (issue 32 point 3)', async () => {
    const payout = document(3);
    payout.groupName = 'Klass 5Ş Łódźskolan';
    payout.sellers[0]!.name = 'Nguyễn Thị Mai';
    payout.lines[0]!.sellerName = 'Nguyễn Thị Mai';
    payout.lines[1]!.product = 'Tvål “Łagodne” – 2 st';
    const { text } = readPdf(await renderPayoutPdf(payout));
    expect(text).toContain('Klass 5Ş Łódźskolan (gruppkod ALV4A1)');
    expect(text).toContain('Nguyễn Thị Mai');
    expect(text).toContain('Tvål “Łagodne” – 2 st');
  });
});
