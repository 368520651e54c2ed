import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupCsvWriter, oreAsDecimalComma, type CsvRecord } from './export-group-csv.js';

describe('oreAsDecimalComma', () => {
  it('writes öre as the number Swedish Excel reads: decimal comma, two decimals, no grouping', () => {
    expect([0, 5, 99, 100, 14950, 123456789, -5, -14950].map(oreAsDecimalComma)).toEqual([
      '0,00',
      '0,05',
      '0,99',
      '1,00',
      '149,50',
      '1234567,89',
      '-0,05',
      '-149,50',
    ]);
  });
});

/** Characters that break naive CSV (separators, quotes, line ends) or start a spreadsheet formula. */
const TRICKY = [
  ';',
  ',',
  '"',
  "'",
  '\r',
  '\n',
  '\r\n',
  '\t',
  '=',
  '+',
  '-',
  '@',
  '\uFF1D',
  '\uFF0B',
  '\uFF0D',
  '\uFF20',
  ' ',
  'Å',
  'ö',
  '🙂',
  'a',
  '1',
];
const text = fc.oneof(fc.string({ unit: fc.constantFrom(...TRICKY), maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 12 }));
/** A cell Excel runs as a formula when it starts with one of these (OWASP CSV injection, and their full-width forms). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A line break inside a cell: Excel shows each line, and starts each as it would a cell of its own. */
const LINE_BREAK = /\r\n|\r|\n/;

/**
 * What the export must write for a text: the same text, with an apostrophe before every line
 * (the first, and each after CR, LF or CRLF) that begins with a formula trigger.
 */
function neutralised(original: string): string {
  let written = '';
  let atLineStart = true;
  for (const character of original) {
    if (atLineStart && FORMULA_START.test(character)) written += "'";
    written += character;
    atLineStart = character === '\r' || character === '\n';
  }
  return written;
}

/**
 * Reads the export as Excel does: a CR, an LF or a CRLF outside quotes ends the row (so a bare CR
 * in an unquoted cell would start a new row with the rest of the cell).
 */
function readAsExcel(csv: string): string[][] {
  return parse(csv, { bom: true, delimiter: ';', record_delimiter: ['\r\n', '\r', '\n'] }) as string[][];
}

/** Fields in the export's column order. */
const record = fc.record({
  seller: text,
  role: text,
  order: text,
  orderedAt: text,
  kind: text,
  product: text,
  quantity: fc.integer({ min: -1000, max: 1000 }),
  amountOre: fc.integer({ min: -100_000_000, max: 100_000_000 }),
  commissionOre: fc.integer({ min: -25_000_000, max: 25_000_000 }),
  bookedAt: text,
  payoutId: fc.oneof(fc.constant(''), fc.integer({ min: 1, max: 2_147_483_647 })),
}) satisfies fc.Arbitrary<CsvRecord>;

async function writeCsv(records: CsvRecord[]): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of Readable.from(records).pipe(groupCsvWriter())) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

const TEXT_COLUMNS = ['seller', 'role', 'order', 'orderedAt', 'kind', 'product', 'bookedAt'] as const;

describe('groupCsvWriter (property)', () => {
  it('keeps every cell and row whole whatever its text holds, and no line of a text cell can start a formula', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 15 }), async (records) => {
        const csv = await writeCsv(records);
        expect(csv.startsWith('\uFEFF')).toBe(true);
        const [header, ...rows] = readAsExcel(csv);
        expect(header).toHaveLength(11);
        expect(rows).toHaveLength(records.length);
        rows.forEach((row, index) => {
          const written = records[index]!;
          expect(row).toHaveLength(11);
          const cells = Object.fromEntries(Object.keys(written).map((key, column) => [key, row[column]!]));
          for (const column of TEXT_COLUMNS) {
            const original = String(written[column]);
            expect(cells[column]).toBe(neutralised(original));
            for (const line of cells[column]!.split(LINE_BREAK)) expect(line).not.toMatch(FORMULA_START);
          }
          // Numbers stay numbers Excel can add up, a refund's minus sign included.
          expect(cells.quantity).toBe(String(written.quantity));
          for (const column of ['amountOre', 'commissionOre'] as const) {
            expect(cells[column]).toMatch(/^-?\d+,\d{2}$/);
            expect(Math.round(Number(cells[column]!.replace(',', '.')) * 100)).toBe(written[column]);
          }
          expect(cells.payoutId).toBe(String(written.payoutId));
        });
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});

describe('groupCsvWriter', () => {
  it('quotes a name holding a bare CR and neutralises the formula on its second line (issue 15)', async () => {
    const name = "Noah\r=cmd|' /C calc'!A0";
    const records: CsvRecord[] = [
      {
        seller: name,
        role: 'Säljare',
        order: '#1001\n+1',
        orderedAt: '2025-03-01 10:00',
        kind: 'Försäljning',
        product: '-Tvål\r\n@SUM(A1)',
        quantity: 1,
        amountOre: 14900,
        commissionOre: 3725,
        bookedAt: '2025-03-01 10:00',
        payoutId: '',
      },
    ];
    const csv = await writeCsv(records);
    expect(csv).toContain(`"Noah\r'=cmd|' /C calc'!A0"`);
    const [, ...rows] = readAsExcel(csv);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(0, 6)).toEqual([
      "Noah\r'=cmd|' /C calc'!A0",
      'Säljare',
      "#1001\n'+1",
      '2025-03-01 10:00',
      'Försäljning',
      "'-Tvål\r\n'@SUM(A1)",
    ]);
  });
});
