/** `npm run import-products -- produkter.csv`: see docs/shopify.md. */
import fs from 'node:fs';
import { runCommand } from './cli.js';
import { importProducts } from './import-products.js';

await runCommand(async ({ db }) => {
  const file = process.argv[2];
  if (!file) {
    console.error('Ange CSV-filen: npm run import-products -- produkter.csv');
    return 2;
  }
  if (!fs.existsSync(file)) {
    console.error(`Filen ${file} finns inte`);
    return 2;
  }
  const report = await importProducts(db, fs.readFileSync(file, 'utf8'));
  console.log(`${report.created} produkter skapade, ${report.updated} uppdaterade, ${report.skipped.length} rader hoppades över.`);
  for (const row of report.skipped) console.log(`  rad ${row.line}: ${row.reason}`);
  return report.skipped.length > 0 ? 1 : 0;
});
