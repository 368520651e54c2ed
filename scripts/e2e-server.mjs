// The server the browser tests drive: the built app on a fresh embedded database with demo data.
// It generates the demo accounts' password into DATA_DIR/demo-password, where e2e/support/fixtures.ts reads it.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const port = process.env.E2E_PORT ?? '4173';
const dataDir = port === '4173' ? '.e2e-data' : `.e2e-data-${port}`;
rmSync(dataDir, { recursive: true, force: true });
const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
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
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
