/**
 * One table of figures, each beside its budget, printed and written to bench/RESULTS.md. The
 * hand-written part of RESULTS.md (what was changed to meet the budgets, before and after) lives
 * below a marker and is kept when the file is written again.
 */
import fs from 'node:fs';

export interface Row {
  section: string;
  what: string;
  figure: string;
  budget: string;
  /** undefined: reported, no budget. */
  met?: boolean;
}

export interface RunInfo {
  date: string;
  commit: string;
  dirtyFiles: number;
  machine: string;
  node: string;
  database: string;
  dataSets: string[];
  loadBefore: number[];
  loadAfter: number[];
  command: string;
  settings: string[];
  seconds: number;
}

export const KEEP_MARKER = '<!-- Everything below this line is written by hand and kept when `npm run bench` rewrites the file. -->';

const mark = (row: Row) => (row.met === undefined ? '' : row.met ? 'yes' : '**NO**');
const loads = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');

export function formatTable(rows: Row[]): string {
  const lines = ['| part | measurement | result | budget | met |', '|---|---|---|---|---|'];
  for (const row of rows) lines.push(`| ${row.section} | ${row.what} | ${row.figure} | ${row.budget} | ${mark(row)} |`);
  return lines.join('\n');
}

/** The table as plain text for the terminal. */
export function printTable(rows: Row[]): string {
  const widths = [0, 0, 0, 0];
  for (const row of rows)
    [row.section, row.what, row.figure, row.budget].forEach((cell, i) => (widths[i] = Math.max(widths[i]!, cell.length)));
  return rows
    .map((row) =>
      [row.section, row.what, row.figure, row.budget]
        .map((cell, i) => cell.padEnd(widths[i]!))
        .concat(row.met === undefined ? '' : row.met ? 'ok' : 'MISSED')
        .join('  '),
    )
    .join('\n');
}

export function writeResults(file: string, rows: Row[], info: RunInfo): void {
  const kept = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split(KEEP_MARKER)[1] : undefined;
  const missed = rows.filter((row) => row.met === false);
  const text = [
    '# Benchmark results (issue 7)',
    '',
    `Written by \`${info.command}\` on ${info.date}, commit \`${info.commit.slice(0, 12)}\`` +
      (info.dirtyFiles ? ` with ${info.dirtyFiles} uncommitted files in the working tree (other people's work in progress)` : '') +
      '.',
    '',
    `To reproduce: \`${info.command}\` from the repository's root, after \`npm ci\`, with PostgreSQL at \`DATABASE_URL\` ` +
      '(default 127.0.0.1:5432); the data sets are generated there when missing, and vacuumed when reused.',
    '',
    `- machine: ${info.machine}; Node ${info.node}`,
    `- database: ${info.database}`,
    `- data sets: ${info.dataSets.join('; ')}`,
    `- load average (1/5/15 min) at the start: ${loads(info.loadBefore)}; at the end: ${loads(info.loadAfter)}`,
    ...info.settings.map((setting) => `- ${setting}`),
    `- the whole run took ${(info.seconds / 60).toFixed(1)} minutes`,
    '',
    missed.length === 0
      ? 'Every budget is met.'
      : `**${missed.length} budget(s) missed:** ${missed.map((row) => `${row.section}: ${row.what}`).join('; ')}.`,
    '',
    formatTable(rows),
    '',
    KEEP_MARKER,
    kept?.replace(/^\n+/, '\n') ?? '\n',
  ].join('\n');
  fs.writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
}
