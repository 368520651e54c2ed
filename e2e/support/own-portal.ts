import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from './postgres-database';

export interface OwnPortal {
  /** `http://127.0.0.1:<port>`, the port the system gave it. */
  base: string;
  dataDir: string;
  /** Its PostgreSQL database's address, when it was started with `postgres`. */
  databaseUrl?: string;
  /** The demo accounts' password, generated into its data dir. */
  demoPassword(): string;
  /** SIGTERM, waited for; the data dir (and the database) removed. */
  stop(): Promise<void>;
}

/**
 * A portal of a test's own (the built server, demo data, a port the system gives it, read back
 * from the line Fastify logs once it listens), for a test that needs settings or a database the
 * shared e2e server has not: `env` adds to them (PAYOUT_HOLD_DAYS …). With `postgres` it keeps its
 * data in a database of its own, named after the data dir, on the tests' PostgreSQL; without, in
 * the embedded database, as `npm start` does.
 */
export async function startOwnPortal(options: {
  env?: Record<string, string>;
  dataDirPrefix: string;
  postgres?: boolean;
}): Promise<OwnPortal> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), options.dataDirPrefix));
  const database = options.postgres
    ? await createPostgresDatabase(
        `sp_e2e_${path
          .basename(dataDir)
          .replace(/[^a-z0-9]/gi, '_')
          .toLowerCase()}`,
      )
    : undefined;
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      SHOP_URL: 'https://butik.example.se',
      SHOPIFY_WEBHOOK_SECRET: 'e2e-webhook-secret',
      SEED_DEMO: '1',
      RATE_LIMITS: '0',
      LOG_LEVEL: 'info',
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const base = await new Promise<string>((resolve, reject) => {
    let seen = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const listening = seen.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
      if (listening) resolve(listening[1]!);
    });
    server.once('exit', (code) => reject(new Error(`servern avslutades (${code}) innan den lyssnade:\n${seen}`)));
  });
  server.stdout!.resume();
  return {
    base,
    dataDir,
    databaseUrl: database?.url,
    demoPassword: () => fs.readFileSync(path.join(dataDir, 'demo-password'), 'utf8').trim(),
    async stop() {
      server.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
