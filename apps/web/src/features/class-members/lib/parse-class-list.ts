import { parse } from 'csv-parse/browser/esm/sync';
import { ZRosterPupilSchema, type TRosterRequest } from '@saljportalen/contract';

/** One line of a class list as the preview shows it: what was read, and what is wrong with it. */
export interface ClassListRow {
  line: number;
  full_name: string;
  guardian_email: string;
  /** Why the server will refuse the row, in the contract's Swedish words; null when it is fine. */
  problem: string | null;
}

/** The delimiter of the list: Excel's Swedish CSV is `;`, a copy from a sheet is tab, else a comma. */
export function detectDelimiter(text: string): ';' | '\t' | ',' {
  const lines = text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .slice(0, 20);
  const count = (delimiter: string) => lines.reduce((sum, line) => sum + line.split(delimiter).length - 1, 0);
  const counts = [
    [';', count(';')],
    ['\t', count('\t')],
    [',', count(',')],
  ] as const;
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best![1] > 0 ? best![0] : ';';
}

const looksLikeHeader = (cells: string[]) => /^(namn|elev|för- och efternamn|name)/i.test(cells[0]?.trim() ?? '');

/**
 * A pasted or uploaded class list: one pupil a line, the name in the first column (or first and
 * last name in two), optionally a guardian's address in the last. A byte-order mark and a header
 * line ('Namn;Vårdnadshavare') are left out. Each row is checked with the contract's schema.
 */
export function parseClassList(text: string): ClassListRow[] {
  const source = text.replace(/^\uFEFF/, '');
  if (source.trim() === '') return [];
  const records = parse(source, {
    delimiter: detectDelimiter(source),
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    trim: true,
    bom: true,
  }) as string[][];
  const rows = looksLikeHeader(records[0] ?? []) ? records.slice(1) : records;
  return rows
    .map((cells) => cells.filter((cell) => cell !== ''))
    .filter((cells) => cells.length > 0)
    .map((cells, index) => {
      const last = cells.at(-1)!;
      const hasAddress = cells.length > 1 && last.includes('@');
      const nameCells = hasAddress ? cells.slice(0, -1) : cells;
      const fullName = nameCells.join(' ').replace(/\s+/g, ' ').trim();
      const guardianEmail = hasAddress ? last : '';
      const checked = ZRosterPupilSchema.safeParse({ full_name: fullName, guardian_email: guardianEmail || undefined });
      return {
        line: index + 1,
        full_name: fullName,
        guardian_email: guardianEmail,
        problem: checked.success ? null : (checked.error.issues[0]?.message ?? 'Raden kunde inte läsas'),
      };
    });
}

/** What is sent: every row, the refused ones too, so the answer tells each row's outcome. */
export const rosterPupils = (rows: ClassListRow[]): TRosterRequest['pupils'] =>
  rows.map((row) => (row.guardian_email ? { full_name: row.full_name, guardian_email: row.guardian_email } : { full_name: row.full_name }));
