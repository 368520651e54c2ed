/**
 * Issue 18, several processes on one PostgreSQL: three servers started at once on an empty
 * database all come up (the migrations run under an advisory lock, one process at a time), and
 * without JWT_SECRET a token issued by one is accepted by the others, though each has its own
 * DATA_DIR (the signing secret lives in the database). On PGlite, where one process owns the data
 * dir, the same secret holds across a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../src/db/client.js';
import { DEMO_LOGINS } from '../src/modules/demo/seed.js';
import { DEMO_TEST_PASSWORD, copyTemplateDatabase, createPostgresDatabase, testDbKind } from './test-server.js';
import { spawnServer, type SpawnedServer } from './spawned-server.js';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-several-'));
const servers: SpawnedServer[] = [];
let postgres: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;

afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill()));
  await postgres?.drop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

const superadmin = DEMO_LOGINS[0];

async function signIn(server: SpawnedServer): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: superadmin.email, password: DEMO_TEST_PASSWORD }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

const profileStatus = (server: SpawnedServer, token: string) =>
  fetch(`${server.url}/api/account/profile`, { headers: { authorization: `Bearer ${token}` } }).then((response) => response.status);

/** No JWT_SECRET, whatever the environment running the tests has. */
const withoutSecret = { JWT_SECRET: '' };

describe('several server processes', () => {
  it.runIf(testDbKind === 'postgres')(
    'start at once on one empty PostgreSQL database, and accept each other’s tokens',
    { timeout: 240_000 },
    async () => {
      postgres = await createPostgresDatabase();
      const started = await Promise.allSettled(
        ['a', 'b', 'c'].map(async (name) =>
          spawnServer({
            port: 0,
            data: { dataDir: path.join(workDir, name), databaseUrl: postgres!.url },
            env: withoutSecret,
          }),
        ),
      );
      for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
      expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'frisk'))).toEqual([
        'frisk',
        'frisk',
        'frisk',
      ]);

      // Each logs the migrations it ran itself (issue 34): all of them by one, none by the others.
      const ran = servers.map(
        (server) => (server.logEntries().find((entry) => Array.isArray(entry.migrations))!.migrations as string[]).length,
      );
      const known = fs.readdirSync(migrationsFolder).filter((file) => file.endsWith('.sql')).length;
      expect(ran.sort((a, b) => a - b)).toEqual([0, 0, known]);

      for (const issuer of servers) {
        const token = await signIn(issuer);
        for (const other of servers) expect(await profileStatus(other, token)).toBe(200);
      }
      // Nothing of the secret is left in a data dir, where another process would not see it.
      for (const name of ['a', 'b', 'c']) expect(fs.existsSync(path.join(workDir, name, 'jwt-secret'))).toBe(false);
    },
  );

  it.runIf(testDbKind === 'pglite')('keep the embedded database’s signing secret across a restart', { timeout: 180_000 }, async () => {
    const data = { dataDir: path.join(workDir, 'inbaddad') };
    // Its first start is not what this is about: the secret it makes is.
    copyTemplateDatabase('seeded', data.dataDir);
    const first = await spawnServer({ port: 0, data, env: withoutSecret });
    servers.push(first);
    const token = await signIn(first);
    await first.kill('SIGTERM');
    servers.splice(servers.indexOf(first), 1);

    const second = await spawnServer({ port: 0, data, env: withoutSecret });
    servers.push(second);
    expect(await profileStatus(second, token)).toBe(200);
  });
});
