import { buildApp } from './app.js';
import { closeGracefully } from './close-gracefully.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { resolveJwtSecret } from './db/jwt-secret.js';
import { ensureSuperadmin } from './db/ensure-superadmin.js';
import { DEMO_LOGINS, seedDemoData } from './db/seed.js';
import { serveOnlineBackups } from './ops/online-backup.js';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
const app = await buildApp({ config, database, jwtSecret: await resolveJwtSecret(config, database.db) });
await serveOnlineBackups(app, database, config.dataDir);

if (config.superadmin) await ensureSuperadmin(app.db, config.superadmin);
const seeded = config.seedDemo ? await seedDemoData(app.db, { log: app.log }) : false;

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

await app.listen({ port: config.port, host: config.host });

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
