/**
 * The server under test, in its own process so that its CPU, event loop and memory are its own:
 * the app exactly as main.ts builds it from the environment, plus one bench-only bare route that
 * answers without authentication or database (the baseline of every figure). Started by
 * bench/server.ts; reports its port over IPC.
 */
import { buildApp } from '../apps/server/src/app.js';
import { closeGracefully } from '../apps/server/src/lib/close-gracefully.js';
import { loadConfig } from '../apps/server/src/config.js';
import { resolveJwtSecret } from '../apps/server/src/db/jwt-secret.js';
import { openDatabase } from '../apps/server/src/db/client.js';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
const app = await buildApp({ config, database, jwtSecret: await resolveJwtSecret(config, database.db) });
app.get('/bench/bare', async () => ({ ok: true }));

process.on('message', (message) => {
  if (message !== 'stop') return;
  void closeGracefully(app, database).then(() => process.exit(0));
});

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
