/**
 * `npm run remove-demo-data`: removes the demo accounts and the demo groups, orders and payouts
 * the seed made (modules/demo/remove-demo-data.ts) from the portal's database, the embedded one (with the
 * portal stopped) or PostgreSQL, and says what it removed and what it kept. See README, Start it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { DEMO_PASSWORD_FILE } from '../db/demo-password.js';
import { removeDemoData, type DemoRemoval } from '../modules/demo/remove-demo-data.js';
import { takesDemoData } from '../modules/demo/seed.js';
import { AppError } from '../errors.js';
import { runOperatorCommand } from '../lib/operator-command.js';
import { embeddedDataPath } from './command.js';

const list = (items: string[]) => (items.length > 4 ? `${items.slice(0, 4).join(', ')} och ${items.length - 4} till` : items.join(', '));

function report(removal: DemoRemoval, passwordFile: string | undefined): string[] {
  const lines: string[] = [];
  const removedAnything =
    removal.removedAccounts.length + removal.lockedAccounts.length + removal.removedGroups.length + removal.products > 0;
  if (!removedAnything && removal.keptGroups.length === 0) return ['Databasen har ingen demodata: inget togs bort.'];
  lines.push(
    `Demodatan är borttagen: ${removal.removedAccounts.length} konton, ${removal.removedGroups.length} grupper, ${removal.orders} ordrar, ${removal.payouts} utbetalningar och ${removal.products} produkter.`,
  );
  if (removal.removedAccounts.length > 0) lines.push(`  Borttagna konton: ${list(removal.removedAccounts)}`);
  if (removal.removedGroups.length > 0) lines.push(`  Borttagna grupper: ${removal.removedGroups.join(', ')}`);
  if (removal.keptGroups.length > 0) {
    lines.push(
      `  Kvar, eftersom de har riktiga medlemmar, ordrar eller utbetalningar: ${removal.keptGroups.join(', ')}. Deras ordrar och utbetalningar är orörda.`,
    );
  }
  if (removal.lockedAccounts.length > 0) {
    lines.push(
      `  Kvar med ett nytt lösenord som ingen känner till (en kvarvarande grupp eller utbetalning pekar på dem), utloggade: ${list(removal.lockedAccounts)}`,
    );
  }
  if (passwordFile) lines.push(`  ${passwordFile} är borttagen.`);
  return lines;
}

await runOperatorCommand(async () => {
  const config = loadConfig();
  if (!config.databaseUrl && !fs.existsSync(path.join(embeddedDataPath(config.dataDir), 'PG_VERSION'))) {
    console.log(`Det finns ingen inbäddad databas i ${config.dataDir}: inget togs bort.`);
    return 0;
  }
  let database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    if (error instanceof AppError && error.code === 'DATA_DIR_LOCKED') {
      throw new AppError('DATA_DIR_LOCKED', `${error.message} Stoppa portalen och kör npm run remove-demo-data igen.`);
    }
    throw error;
  }
  let removal: DemoRemoval;
  let empty: boolean;
  try {
    removal = await removeDemoData(database.db);
    empty = await takesDemoData(database.db);
  } finally {
    await database.close();
  }
  // The password of accounts that are gone, or that nobody knows now, has no use left.
  const passwordFile = path.join(config.dataDir, DEMO_PASSWORD_FILE);
  const removedFile = fs.existsSync(passwordFile) && removal.removedAccounts.length + removal.lockedAccounts.length > 0;
  if (removedFile) fs.rmSync(passwordFile);
  for (const line of report(removal, removedFile ? passwordFile : undefined)) console.log(line);
  if (empty && config.seedDemo) {
    console.log(
      'Databasen är nu tom, och med de här inställningarna skapar nästa start ny demodata: starta med SEED_DEMO=0 (eller SUPERADMIN_EMAIL).',
    );
  }
  return 0;
});
