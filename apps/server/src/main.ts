import cluster from 'node:cluster';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { closeGracefully } from './lib/close-gracefully.js';
import { greetsTheOperator, startClusterPrimary } from './cluster.js';
import { loadConfig, type Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { DEMO_PASSWORD_FILE, generateDemoPassword, keepDemoPassword, readDemoPassword } from './db/demo-password.js';
import { demoOnNetwork, isLoopback } from './demo-on-network.js';
import { ensureSuperadmin } from './modules/auth/ensure-superadmin.js';
import { resolveJwtSecret } from './db/jwt-secret.js';
import { DEMO_LOGINS, demoPasswordOf, findDemoAccounts, seedDemoData, takesDemoData } from './modules/demo/seed.js';
import { logRedaction } from './lib/log-redaction.js';
import { keepNewFilesPrivate, makeDataDirPrivate } from './lib/private-data-dir.js';
import { serveOnlineBackups } from './ops/online-backup.js';
import { assertPortFree, assertWritableDir, describeStartupFailure } from './startup-failure.js';

keepNewFilesPrivate();

// WEB_CONCURRENCY=N: this process only watches N workers, each of which runs this file and the
// start below (cluster.ts, decision 026). It never goes past this line; it exits when they have.
if (cluster.isPrimary && (await startClusterPrimary(fileURLToPath(import.meta.url)))) await new Promise(() => {});

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
  // A worker's port is the cluster primary's, which has checked it.
  if (cluster.isPrimary) await assertPortFree(config.port, config.host ?? '0.0.0.0');
  if (!config.databaseUrl) assertWritableDir(config.dataDir);
  const dataDirFiles = makeDataDirPrivate(config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize, log });
  opened = database;
  // PGlite gives its first data files (666) and the relation cache files it writes on every open
  // (644) explicit modes, which no umask narrows; the files it creates later follow the umask.
  if (database.kind === 'pglite') makeDataDirPrivate(path.join(config.dataDir, 'pgdata'));
  const app = await buildApp({ config, database, jwtSecret: await resolveJwtSecret(config, database.db), loggerInstance: log });
  await serveOnlineBackups(app, database, config.dataDir);

  if (dataDirFiles.tightened.length > 0) {
    log.warn(
      { dataDir: config.dataDir, tightened: dataDirFiles.tightened.length, examples: dataDirFiles.tightened.slice(0, 5) },
      'DATA_DIR kunde läsas av andra än ägaren: behörigheterna är nu skärpta (kataloger 700, filer 600)',
    );
  }
  if (dataDirFiles.failed.length > 0) {
    log.warn(
      { dataDir: config.dataDir, failed: dataDirFiles.failed.length, examples: dataDirFiles.failed.slice(0, 5) },
      'DATA_DIR innehåller filer som servern inte kan göra privata (ägs av en annan användare?)',
    );
  }

  const superadmin = config.superadmin ? await ensureSuperadmin(app.db, config.superadmin) : undefined;
  if (superadmin === 'not-superadmin') {
    log.warn(
      'SUPERADMIN_EMAIL hör till ett konto som inte är superadmin: det lämnas orört. SUPERADMIN_RESET_PASSWORD=1 gör det till superadmin med SUPERADMIN_PASSWORD.',
    );
  }

  // Demo data: only where config allows it, only on an empty database, with this data dir's own
  // password; never on the network unless ALLOW_DEMO_ON_NETWORK says so (issue 28).
  const onNetwork = config.host !== undefined && !isLoopback(config.host);
  const demoBarred = onNetwork && !config.allowDemoOnNetwork;
  let seeded = false;
  if (config.seedDemo) {
    if (demoBarred && (await takesDemoData(app.db))) throw demoOnNetwork(config.host!, 'seed');
    const kept = readDemoPassword(config.dataDir);
    const password = kept ?? generateDemoPassword();
    seeded = await seedDemoData(app.db, { password, log: app.log });
    if (seeded && !kept) keepDemoPassword(config.dataDir, password);
  }
  // Whatever the settings say (production, DATABASE_URL, an old data dir): demo accounts stay off the network.
  const demoAccounts = (await findDemoAccounts(app.db)).length;
  let demo: { seeded: boolean; password: string; renewed: boolean; accounts: number } | undefined;
  if (demoAccounts > 0) {
    if (demoBarred) throw demoOnNetwork(config.host!, demoAccounts);
    demo = { seeded, accounts: demoAccounts, ...(await demoPasswordOf(app.db, config.dataDir)) };
  }
  const passwordFile = path.join(config.dataDir, DEMO_PASSWORD_FILE);
  if (demo && !config.seedDemo) {
    log.warn(
      { demoAccounts, passwordFile, renewedPassword: demo.renewed },
      `databasen har demodatans konton, vars lösenord står i DATA_DIR/demo-password, utan att demoläget är på: ${
        onNetwork ? 'ALLOW_DEMO_ON_NETWORK=1 öppnar dem för nätverket' : 'portalen lyssnar bara på den här datorn'
      } tills de är borttagna med npm run remove-demo-data`,
    );
  }
  if (!config.shopifyWebhookSecret) {
    log.warn('SHOPIFY_WEBHOOK_SECRET saknas: webhooks från Shopify avvisas tills den är satt (docs/shopify.md)');
  }

  // While demo accounts exist, only this computer can reach them unless HOST (and ALLOW_DEMO_ON_NETWORK) say otherwise.
  const host = config.host ?? (demo ? '127.0.0.1' : '0.0.0.0');
  settings = { ...config, host };
  await app.listen({ port: config.port, host });
  return { config, database, app, host, superadmin, demo, passwordFile };
}

const { config, database, app, host, superadmin, demo, passwordFile } = await start().catch(async (error: unknown) => {
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

if (!greetsTheOperator()) {
  // The cluster's other workers: one line, the first worker has said the rest.
  app.log.info({ worker: cluster.worker?.id }, 'arbetsprocess startad');
} else if (demo && config.seedDemo) {
  // The newcomer's run: a plain-text banner with what they need to try the portal.
  const lines = [
    '',
    `  Säljportalen kör på ${config.publicUrl}  (demoläge)`,
    `  Databas: ${database.kind === 'pglite' ? `inbäddad PostgreSQL (PGlite) i ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
    demo.seeded ? '  Demodata skapad.' : '  Demodata fanns redan.',
  ];
  if (demo.renewed) {
    lines.push('  Demokontona hade ett lösenord som inte fanns sparat här (en äldre version gav dem demo1234): de har fått ett nytt.');
  }
  lines.push(`  Demoinloggningar (samma lösenord för alla, sparat i ${passwordFile}):`);
  for (const login of DEMO_LOGINS) lines.push(`    ${login.label.padEnd(28)} ${login.email.padEnd(32)} ${demo.password}`);
  lines.push(`  Superadmin loggar in på ${config.publicUrl}/admin/login`);
  if (isLoopback(host)) {
    lines.push(
      `  Portalen nås bara från den här datorn (lyssnar på ${host}). Öppna den för nätverket, demokontona med, med:`,
      `    HOST=0.0.0.0 ALLOW_DEMO_ON_NETWORK=1 npm start`,
    );
  } else {
    lines.push(`  Portalen lyssnar på ${host} (ALLOW_DEMO_ON_NETWORK=1): andra i nätverket når den, och demokontona, med lösenordet ovan.`);
  }
  lines.push(
    '  Ta bort demodatan (demokontona, demogrupperna och deras ordrar och utbetalningar) med: npm run remove-demo-data',
    '  En riktig installation sätter SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD och PUBLIC_URL (se README): då skapas ingen demodata.',
  );
  console.log(lines.join('\n') + '\n');
} else {
  // Production: one structured line, without personal data (the superadmin's address is not logged).
  app.log.info(
    { url: config.publicUrl, database: database.kind, host, port: config.port, superadmin, demoAccounts: demo?.accounts ?? 0 },
    'Säljportalen startad',
  );
}
