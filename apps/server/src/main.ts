import { pino } from 'pino';
import { buildApp } from './app.js';
import { closeGracefully } from './close-gracefully.js';
import { loadConfig, resolveJwtSecret, type Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { ensureSuperadmin } from './db/ensure-superadmin.js';
import { DEMO_LOGINS, seedDemoData } from './db/seed.js';
import { logRedaction } from './lib/log-redaction.js';
import { assertPortFree, assertWritableDir, describeStartupFailure } from './startup-failure.js';

/**
 * The start, in the order that fails fastest: configuration, the port, the data dir, then the
 * database. Any failure is one Swedish line naming the cause and the setting, and exit code 1
 * (docs/security.md, start-up failures).
 */
let settings: Partial<Config> = {};
let opened: Database | undefined;
async function start() {
  const config = loadConfig();
  settings = config;
  const log = pino({ level: config.logLevel, ...logRedaction });
  await assertPortFree(config.port, config.host);
  if (!config.databaseUrl) assertWritableDir(config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize, log });
  opened = database;
  const app = await buildApp({ config, database, jwtSecret: resolveJwtSecret(config), loggerInstance: log });

  if (config.superadmin) await ensureSuperadmin(app.db, config.superadmin);
  const seeded = config.seedDemo ? await seedDemoData(app.db, { log: app.log }) : false;
  if (!config.shopifyWebhookSecret) {
    log.warn('SHOPIFY_WEBHOOK_SECRET saknas: webhooks från Shopify avvisas tills den är satt (docs/shopify.md)');
  }
  await app.listen({ port: config.port, host: config.host });
  return { config, database, app, seeded };
}

const { config, database, app, seeded } = await start().catch(async (error: unknown) => {
  await opened?.close().catch(() => {});
  console.error(describeStartupFailure(error, settings));
  process.exit(1);
});

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: slutför pågående förfrågningar och stänger`);
  await closeGracefully(app, database);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

const lines = [
  '',
  `  Säljportalen kör på ${config.publicUrl}`,
  `  Databas: ${database.kind === 'pglite' ? `inbäddad PostgreSQL (PGlite) i ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
];
if (config.seedDemo) {
  lines.push(seeded ? '  Demodata skapad.' : '  Demodata fanns redan.', '  Demoinloggningar:');
  for (const login of DEMO_LOGINS) lines.push(`    ${login.label.padEnd(28)} ${login.email.padEnd(32)} ${login.password}`);
  lines.push(`  Superadmin loggar in på ${config.publicUrl}/admin/login`);
}
if (config.superadmin) lines.push(`  Superadmin: ${config.superadmin.email}`);
console.log(lines.join('\n') + '\n');
