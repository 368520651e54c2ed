// Writes docs/decisions/README.md, the index of the decision records, from the records themselves:
// each record's number, title, and its `Date: … · Status: …` line under the title.
// Run it after adding a record or changing a status: `node scripts/decisions-index.mjs`.
import fs from 'node:fs';
import path from 'node:path';

const dir = path.join(import.meta.dirname, '../docs/decisions');
const files = fs
  .readdirSync(dir)
  .filter((file) => /^\d{3}-.*\.md$/.test(file))
  .sort();
const linkStatus = (status) =>
  status.replace(/\b(\d{3})\b(?!\])/g, (number) => {
    const file = files.find((name) => name.startsWith(number));
    return file ? `[${number}](${file})` : number;
  });

const rows = files.map((file) => {
  const [heading, ...rest] = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
  const line = rest.slice(0, 6).find((text) => text.startsWith('Date: '));
  const match = line?.match(/^Date: (\d{4}-\d{2}-\d{2}) · Status: (.+)$/);
  if (!match) throw new Error(`${file}: no "Date: YYYY-MM-DD · Status: …" line under the title`);
  const title = heading.replace(/^#\s*\d{3}:?\s*/, '').replace(/\|/g, '\\|');
  return `| [${file.slice(0, 3)}](${file}) | ${title} | ${match[1]} | ${linkStatus(match[2].replace(/\[(\d{3})\]\([^)]*\)/g, '$1'))} |`;
});

fs.writeFileSync(
  path.join(dir, 'README.md'),
  `# Decision records

Each record says what was decided where the product spec (\`docs/product-spec.md\`) and the design
(\`docs/design.md\`) leave a choice open or had to be departed from, why, and what was measured.
A record is not rewritten once its decision has shipped: a later record supersedes it, in whole or
in part, and both say so. Numbers 011 and 014 were never used.

A new record takes the next number, a title that states the decision, and under the title the line
\`Date: YYYY-MM-DD · Status: accepted\` (later \`superseded by NNN\` or \`superseded in part by NNN\`).
This index is written from those lines by \`node scripts/decisions-index.mjs\`.

| record | decision | date | status |
|---|---|---|---|
${rows.join('\n')}
`,
);
