// The server the browser tests drive (playwright.config.ts starts one per worker): the built app on
// a fresh PostgreSQL database with the demo data (decision 077), its mails and the demo accounts'
// password in a fresh data dir, where e2e/support/fixtures.ts reads them.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createPostgresDatabase } from './postgres-database';

const port = process.env.E2E_PORT ?? '4173';
const dataDir = port === '4173' ? '.e2e-data' : `.e2e-data-${port}`;
rmSync(dataDir, { recursive: true, force: true });
const database = await createPostgresDatabase(`sp_e2e_${port}`);
const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    PORT: port,
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SHOP_URL: 'https://butik.example.se',
    SHOPIFY_WEBHOOK_SECRET: 'e2e-webhook-secret',
    SEED_DEMO: '1',
    RATE_LIMITS: '0',
    LOG_LEVEL: 'warn',
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => {
  void database.drop().finally(() => process.exit(code ?? 0));
});
