import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every decision record carries its date and status under its title, and the index lists each
// one as the record says (issue 29: docs that stand alone). `node scripts/decisions-index.mjs`
// writes the index from the records.
const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const dir = path.join(root, 'docs/decisions');
const records = fs.readdirSync(dir).filter((file) => /^\d{3}-.*\.md$/.test(file));

describe('decision records', () => {
  it.each(records)('%s has a date and a status under its title, and the index lists it with them', (file) => {
    const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
    const line = lines.slice(1, 6).find((text) => text.startsWith('Date: '));
    expect(line).toMatch(/^Date: \d{4}-\d{2}-\d{2} · Status: (accepted|superseded (in part )?by .*\d{3}.*)$/);
    const [, date] = line!.match(/^Date: (\S+)/)!;
    const index = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    expect(index).toContain(`| [${file.slice(0, 3)}](${file}) |`);
    expect(index.split('\n').find((row) => row.startsWith(`| [${file.slice(0, 3)}]`))).toContain(`| ${date} |`);
  });
});
