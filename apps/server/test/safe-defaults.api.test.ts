/**
 * Safe defaults at start (issues 15 and 18), on the real server as a child process: a newcomer's
 * first start seeds demo data with a password of its own, kept in DATA_DIR, prints it in a
 * banner and listens on this computer only; a real install (SUPERADMIN_EMAIL, https,
 * NODE_ENV=production) gets no demo data, listens on every interface and logs one JSON start
 * line without personal data; DATA_DIR and everything in it are the owner's alone.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD_FILE } from '../src/db/demo-password.js';
import { DEMO_LOGINS, DEMO_SIGN_IN_NAMES } from '../src/modules/demo/seed.js';
import { eventually, testDbKind } from './test-server.js';
import { spawnOperatorCommand } from './operator-commands.js';
import {
  freePort,
  inspectDatabase,
  serverCommand,
  serverDataFolder,
  spawnServer,
  startServerToEnd,
  type ServerData,
  type SpawnedServer,
} from './spawned-server.js';

const serverData = serverDataFolder('sp-defaults-');
let port: number;
/** Each test starts the server up to twice; a machine shared with other runs can take minutes. */
const startTimeoutMs = 240_000;

const freshData = serverData.fresh;

beforeAll(async () => {
  port = await freePort();
});
afterAll(() => serverData.dispose());

/** This machine's address on its network, if it has one: what a neighbour would connect to. */
const networkAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

function accepts(address: string, onPort: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: address, port: onPort, timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const signIn = (server: SpawnedServer, email: string, password: string) =>
  fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

async function stop(server: SpawnedServer): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toEqual({ code: 0, signal: null });
}

/** Every directory and file under `dir` (symbolic links aside) that anyone but the owner may use. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (current: string) => {
    const stat = fs.lstatSync(current);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) found.push(`${path.relative(dir, current) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(current)) visit(path.join(current, name));
  };
  visit(dir);
  return found;
}

/** The production start's one JSON line, once the test has read it (it may come after /api/health answers). */
const startLine = (server: SpawnedServer) => server.logged((entry) => entry.msg === 'Säljportalen startad');
/** The demo's banner, whole, once the test has read it (its last line is the advice to a real install). */
const banner = async (server: SpawnedServer) => {
  await server.printed('En riktig installation sätter SUPERADMIN_EMAIL');
  return server.output();
};

describe('a newcomer’s first start', () => {
  it(
    'seeds demo data with a password of its own, kept in DATA_DIR, prints it with the logins, and listens on this computer only',
    { timeout: 600_000 },
    async () => {
      const data = await freshData('demo', 'empty');
      // HOST unset; on PostgreSQL demo data needs asking for.
      const env = { HOST: '', SEED_DEMO: testDbKind === 'postgres' ? '1' : '' };
      const passwordFile = path.join(data.dataDir, DEMO_PASSWORD_FILE);

      const first = await spawnServer({ port, data, env, demoPassword: false, startTimeoutMs });
      let password: string;
      try {
        password = fs.readFileSync(passwordFile, 'utf8').trim();
        expect(password).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
        expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);

        const firstBanner = await banner(first);
        expect(firstBanner).toContain(`Säljportalen kör på http://localhost:${port}`);
        expect(firstBanner).toContain('Demodata skapad.');
        for (const login of DEMO_LOGINS) expect(firstBanner).toMatch(new RegExp(`${login.email.replace('.', '\\.')}\\s+${password}`));
        expect(firstBanner).toContain('HOST=0.0.0.0 ALLOW_DEMO_ON_NETWORK=1 npm start');
        expect(firstBanner).toContain('npm run remove-demo-data');

        expect((await signIn(first, DEMO_LOGINS[0].email, password)).status).toBe(200);
        expect((await signIn(first, DEMO_LOGINS[0].email, 'demo1234')).status).toBe(401);

        expect(await accepts('127.0.0.1', port)).toBe(true);
        if (networkAddress) expect(await accepts(networkAddress, port)).toBe(false);
      } finally {
        await stop(first);
      }

      // The next start: the same password, nothing seeded again.
      const second = await spawnServer({ port, data, env, demoPassword: false, startTimeoutMs });
      try {
        expect(await banner(second)).toContain('Demodata fanns redan.');
        expect(second.output()).toMatch(new RegExp(`elsa@demo\\.se\\s+${password}`));
        expect((await signIn(second, 'elsa@demo.se', password)).status).toBe(200);
      } finally {
        await stop(second);
      }
      const [counts] = await inspectDatabase<{ superadmins: number }>(
        data,
        sql`select count(*)::int as superadmins from users where is_superadmin`,
      );
      expect(counts!.superadmins).toBe(1);
    },
  );

  it(
    'refuses a network HOST for the demo unless ALLOW_DEMO_ON_NETWORK=1; with it, listens on the network and the banner says that the demo accounts are reachable',
    { timeout: 300_000 },
    async () => {
      const data = await freshData('demo-network');
      const env = { HOST: '0.0.0.0', SEED_DEMO: testDbKind === 'postgres' ? '1' : '' };
      const refused = await startServerToEnd({ port, data, env }, startTimeoutMs);
      expect(refused.code).toBe(1);
      const [line, ...more] = refused.lines.filter((text) => text.startsWith('Säljportalen kunde inte starta:'));
      expect(more).toEqual([]);
      expect(line).toMatch(
        /^Säljportalen kunde inte starta: HOST=0\.0\.0\.0 är inte tillåtet här: den tomma databasen skulle få demodatans konton/,
      );
      expect(line).toContain('ALLOW_DEMO_ON_NETWORK=1');
      expect(await accountsIn(data)).toBe(0);

      const server = await spawnServer({ port, data, env: { ...env, ALLOW_DEMO_ON_NETWORK: '1' }, startTimeoutMs });
      try {
        expect(await banner(server)).toContain('Portalen lyssnar på 0.0.0.0');
        if (networkAddress) expect(await accepts(networkAddress, port)).toBe(true);
      } finally {
        await stop(server);
      }
    },
  );
});

const accountsIn = async (data: ServerData) =>
  (await inspectDatabase<{ n: number }>(data, sql`select count(*)::int as n from users`))[0]!.n;

/**
 * What an older version left: the demo data set with the public password demo1234, and no password
 * file. The run's seeded template is exactly that (global-setup.ts seeds it with demo1234).
 */
async function leftByAnOlderVersion(name: string): Promise<ServerData> {
  const data = await freshData(name, 'seeded');
  expect(fs.existsSync(path.join(data.dataDir, DEMO_PASSWORD_FILE))).toBe(false);
  return data;
}

describe('demo accounts in a database, whatever the settings (issue 28)', () => {
  it(
    'an old data dir in demo mode gets a generated password in place of demo1234, and the banner prints it',
    { timeout: 300_000 },
    async () => {
      const data = await leftByAnOlderVersion('old-demo');
      const server = await spawnServer({
        port,
        data,
        env: { HOST: '', SEED_DEMO: testDbKind === 'postgres' ? '1' : '' },
        demoPassword: false,
        startTimeoutMs,
      });
      try {
        const password = fs.readFileSync(path.join(data.dataDir, DEMO_PASSWORD_FILE), 'utf8').trim();
        expect(password).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
        expect(await banner(server)).toContain('de har fått ett nytt');
        for (const login of DEMO_LOGINS) expect(server.output()).toMatch(new RegExp(`${login.email.replace('.', '\\.')}\\s+${password}`));
        expect(await signIn(server, DEMO_LOGINS[0].email, 'demo1234')).toHaveProperty('status', 401);
        expect(await signIn(server, DEMO_LOGINS[0].email, password)).toHaveProperty('status', 200);
      } finally {
        await stop(server);
      }
    },
  );

  it(
    'keeps them on this computer in production (or on PostgreSQL after the move): a network HOST is refused, an unset one is loopback; npm run remove-demo-data removes them and opens the network',
    { timeout: 900_000 },
    async () => {
      const data = await leftByAnOlderVersion('old-production');
      // Production with an https address; on TEST_DB=postgres, DATABASE_URL is set too.
      const production = { NODE_ENV: 'production', PUBLIC_URL: 'HTTPS://portal.skolan.se', SEED_DEMO: '' };

      const refused = await startServerToEnd({ port, data, env: { ...production, HOST: '0.0.0.0' } }, startTimeoutMs);
      expect(refused.code).toBe(1);
      expect(refused.lines.filter((line) => line.startsWith('Säljportalen kunde inte starta:'))).toEqual([
        expect.stringMatching(
          /HOST=0\.0\.0\.0 är inte tillåtet här: databasen har \d+ av demodatans konton.*npm run remove-demo-data.*ALLOW_DEMO_ON_NETWORK=1/,
        ),
      ]);

      const loopback = await spawnServer({ port, data, env: { ...production, HOST: '' }, demoPassword: false, startTimeoutMs });
      try {
        expect(await startLine(loopback)).toMatchObject({
          host: '127.0.0.1',
          demoAccounts: DEMO_SIGN_IN_NAMES.length,
        });
        expect(await loopback.logged((entry) => String(entry.msg).includes('npm run remove-demo-data'))).toMatchObject({ level: 40 });
        expect(await accepts('127.0.0.1', port)).toBe(true);
        if (networkAddress) expect(await accepts(networkAddress, port)).toBe(false);
        // demo1234 is public: the accounts have a new password, kept in the file and never logged.
        const password = fs.readFileSync(path.join(data.dataDir, DEMO_PASSWORD_FILE), 'utf8').trim();
        expect(loopback.output()).not.toContain(password);
        expect(await signIn(loopback, DEMO_LOGINS[2].email, 'demo1234')).toHaveProperty('status', 401);
      } finally {
        await stop(loopback);
      }

      const removal = await spawnOperatorCommand('remove-demo-data', [], {
        env: { ...serverCommand({ port, data }).env, ...production },
        throughNpm: true,
      });
      expect(removal.code, removal.stderr).toBe(0);
      expect(removal.stdout).toMatch(
        new RegExp(
          `^Demodatan är borttagen: ${DEMO_SIGN_IN_NAMES.length} konton, 4 grupper, \\d+ ordrar, 2 utbetalningar och 10 produkter\\.`,
        ),
      );
      expect(fs.existsSync(path.join(data.dataDir, DEMO_PASSWORD_FILE))).toBe(false);
      expect(await accountsIn(data)).toBe(0);

      const network = await spawnServer({ port, data, env: { ...production, HOST: '0.0.0.0' }, demoPassword: false, startTimeoutMs });
      try {
        expect(await startLine(network)).toMatchObject({ host: '0.0.0.0', demoAccounts: 0 });
      } finally {
        await stop(network);
      }
    },
  );
});

describe('a real install', () => {
  const superadmin = { email: 'drift@skolan.se', password: 'Miljö-Lösen-1' };
  const env = {
    SUPERADMIN_EMAIL: superadmin.email,
    SUPERADMIN_PASSWORD: superadmin.password,
    PUBLIC_URL: 'https://portal.skolan.se',
    SEED_DEMO: '',
    HOST: '',
  };

  it(
    'with SUPERADMIN_EMAIL and https gets no demo data, listens on every interface and logs one JSON start line without the superadmin’s address; a password changed in the web survives the next start',
    { timeout: 600_000 },
    async () => {
      const data = await freshData('real');
      const first = await spawnServer({ port, data, env, demoPassword: false, startTimeoutMs });
      try {
        // The start line is the last thing a start writes: once it is read, the output is whole.
        expect(await startLine(first)).toMatchObject({
          url: 'https://portal.skolan.se',
          database: testDbKind,
          host: '0.0.0.0',
          superadmin: 'created',
        });
        expect(first.logEntries().filter((entry) => entry.msg === 'Säljportalen startad')).toHaveLength(1);
        const output = first.output();
        expect(output).not.toContain('Demoinloggningar');
        expect(output).not.toContain('Säljportalen kör på');
        expect(output.toLowerCase()).not.toContain(superadmin.email);

        expect(await accepts('127.0.0.1', port)).toBe(true);
        if (networkAddress) expect(await accepts(networkAddress, port)).toBe(true);

        const login = await signIn(first, superadmin.email, superadmin.password);
        expect(login.status).toBe(200);
        const { token } = (await login.json()) as { token: string };
        const changed = await fetch(`${first.url}/api/account/change-password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ current_password: superadmin.password, new_password: 'Webb-Lösen-22' }),
        });
        expect(changed.status).toBe(200);
      } finally {
        await stop(first);
      }
      expect(fs.existsSync(path.join(data.dataDir, DEMO_PASSWORD_FILE))).toBe(false);
      const users = await inspectDatabase<{ email: string }>(data, sql`select email from users`);
      const [groups] = await inspectDatabase<{ count: number }>(data, sql`select count(*)::int as count from groups`);
      expect({ users, groups: groups!.count }).toEqual({ users: [{ email: superadmin.email }], groups: 0 });

      const second = await spawnServer({ port, data, env, demoPassword: false, startTimeoutMs });
      try {
        expect((await signIn(second, superadmin.email, 'Webb-Lösen-22')).status).toBe(200);
        expect((await signIn(second, superadmin.email, superadmin.password)).status).toBe(401);
        expect(await startLine(second)).toMatchObject({ superadmin: 'unchanged' });
      } finally {
        await stop(second);
      }
    },
  );

  it.each([
    ['SUPERADMIN_EMAIL är satt', { SUPERADMIN_EMAIL: superadmin.email, SUPERADMIN_PASSWORD: superadmin.password }],
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
  ])('refuses SEED_DEMO=1 at start when %s, saying why, and writes nothing', { timeout: 120_000 }, async (reason, extra) => {
    const data = await freshData(`refused-${reason.slice(0, 8).replace(/\W/g, '')}`, 'empty');
    const { code, output } = await startServerToEnd({ port, data, env: { ...extra, SEED_DEMO: '1' } }, 100_000);
    expect(code).not.toBe(0);
    expect(output).toContain('SEED_DEMO=1 är inte tillåtet');
    expect(output).toContain(reason);
    expect(fs.readdirSync(data.dataDir)).toEqual([]);
  });
});

describe('DATA_DIR', () => {
  it(
    'is the owner’s alone under a umask that lets anyone read: an open one is tightened at start and logged, and everything written after is 700/600',
    { timeout: 600_000 },
    async () => {
      const data = await freshData('private', 'empty');
      // Left readable by others: an older version's data dir, or a copy made under umask 022.
      fs.chmodSync(data.dataDir, 0o755);
      fs.mkdirSync(path.join(data.dataDir, 'outbox'), { mode: 0o755 });
      fs.chmodSync(path.join(data.dataDir, 'outbox'), 0o755);
      fs.writeFileSync(path.join(data.dataDir, 'outbox', 'gammal.json'), '{}');
      fs.chmodSync(path.join(data.dataDir, 'outbox', 'gammal.json'), 0o644);

      const server = await spawnServer({
        port,
        data,
        umask: '000',
        env: { SEED_DEMO: testDbKind === 'postgres' ? '1' : '' },
        demoPassword: false,
        startTimeoutMs,
      });
      try {
        const tightened = server.logEntries().find((entry) => String(entry.msg).startsWith('DATA_DIR kunde läsas av andra'));
        expect(tightened).toMatchObject({ level: 40, tightened: 3 });
        // A live reset link is written to the outbox now, under the server's own umask.
        const asked = await fetch(`${server.url}/api/auth/forgot-password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'elsa@demo.se' }),
        });
        expect(asked.status).toBe(200);
        await eventually(() => fs.readdirSync(path.join(data.dataDir, 'outbox')).length === 2);
      } finally {
        await stop(server);
      }
      expect(fs.existsSync(path.join(data.dataDir, DEMO_PASSWORD_FILE))).toBe(true);
      if (testDbKind === 'pglite') expect(fs.existsSync(path.join(data.dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
      expect(openToOthers(data.dataDir)).toEqual([]);
    },
  );
});
