/**
 * Issue 18, start-up failures: the real server as a process, started wrong in each way an operator
 * meets, ends with one Swedish line naming the cause and the setting, and exit code 1, quickly.
 *
 * How each file-system case is made real although tests run as root (for whom chmod forbids
 * nothing): a DATA_DIR under a file (ENOTDIR); a DATA_DIR of mode 0555 with the server started as
 * `nobody` (EACCES; the same chmod when the tests do not run as root); a read-only tmpfs mounted
 * for the test (EROFS; skipped where the test may not mount, and said so).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, runToEnd, serverEntry, type EndedProcess } from './spawned-server.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-startup-'));
const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** Starts the server with `env` and waits for it to end (a minute at most: the machine may be busy). */
function startServer(env: Record<string, string>, options: { uid?: number; gid?: number } = {}): Promise<EndedProcess> {
  return runToEnd(process.execPath, serverEntry(), {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      SHOPIFY_WEBHOOK_SECRET: 'hemlig',
      ...env,
    },
    ...options,
    timeoutMs: 60_000,
  });
}

/** One line, in Swedish, that names the setting; exit code 1; no stack and no English wrapper. */
function expectOneLine(outcome: EndedProcess, setting: string, cause: RegExp) {
  expect(outcome.lines, outcome.lines.join('\n')).toHaveLength(1);
  const [line] = outcome.lines;
  expect(line).toMatch(/^Säljportalen kunde inte starta: /);
  expect(line).toContain(setting);
  expect(line).toMatch(cause);
  expect(line).not.toMatch(/DrizzleQueryError|Failed query|\bat .*:\d+:\d+/);
  expect(outcome.code).toBe(1);
}

const newDir = (name: string) => {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};

describe('a start that cannot succeed', () => {
  it('names a bad setting', { timeout: 90_000 }, async () => {
    const outcome = await startServer({ PORT: 'tretusen', DATA_DIR: newDir('config') });
    expectOneLine(outcome, 'PORT', /Ogiltig konfiguration/);
  });

  it(
    'refuses TRUST_PROXY=true, which would let any caller choose its address, and says what to set (issue 28)',
    { timeout: 90_000 },
    async () => {
      const dataDir = path.join(scratch, 'trust-proxy');
      const outcome = await startServer({ PORT: String(await freePort()), DATA_DIR: dataDir, TRUST_PROXY: 'true' });
      expectOneLine(outcome, 'TRUST_PROXY', /vem som helst välja sin egen adress i X-Forwarded-For.*loopback/);
      expect(fs.existsSync(dataDir)).toBe(false);
    },
  );

  it('finds a port in use before it opens the database, and leaves the data dir as it was', { timeout: 90_000 }, async () => {
    const port = await freePort();
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    const dataDir = path.join(scratch, 'port-in-use');
    try {
      const outcome = await startServer({ PORT: String(port), DATA_DIR: dataDir });
      expectOneLine(outcome, 'PORT', new RegExp(`porten 127\\.0\\.0\\.1:${port} används redan`));
    } finally {
      holder.close();
    }
    // Never opened: no database created, no pglite.lock left behind.
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  });

  it('says that PostgreSQL refuses the connection, not what the query builder wrapped it in', { timeout: 90_000 }, async () => {
    const closedPort = await freePort();
    const outcome = await startServer({
      PORT: String(await freePort()),
      DATA_DIR: newDir('refused'),
      DATABASE_URL: `postgres://drift:hemligt-lösen@127.0.0.1:${closedPort}/portal`,
    });
    expectOneLine(outcome, 'DATABASE_URL', /tar inte emot anslutningar \(ECONNREFUSED\)/);
    expect(outcome.lines[0]).not.toContain('hemligt');
  });

  it('names DATABASE_URL when its host accepts the connection and closes it at once (issue 34)', { timeout: 90_000 }, async () => {
    const closing = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    try {
      const outcome = await startServer({
        PORT: String(await freePort()),
        DATA_DIR: newDir('closing'),
        DATABASE_URL: `postgres://drift@127.0.0.1:${(closing.address() as net.AddressInfo).port}/portal`,
      });
      expectOneLine(outcome, 'DATABASE_URL', /stängde anslutningen/);
      expect(outcome.lines.join('\n')).not.toContain('Connection terminated unexpectedly');
    } finally {
      closing.close();
    }
  });

  it('gives up on a database host that accepts the connection and never answers', { timeout: 90_000 }, async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const outcome = await startServer({
        PORT: String(await freePort()),
        DATA_DIR: newDir('silent'),
        DATABASE_URL: `postgres://drift@127.0.0.1:${(silent.address() as net.AddressInfo).port}/portal`,
      });
      expectOneLine(outcome, 'DATABASE_URL', /svarade inte i tid/);
      expect(sockets.length).toBeGreaterThan(0);
      // The connect timeout is 10 s; the rest is the process starting on a busy machine.
      expect(outcome.seconds).toBeLessThan(60);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('says that DATA_DIR lies under a file', { timeout: 90_000 }, async () => {
    const file = path.join(scratch, 'a-file');
    fs.writeFileSync(file, '');
    const outcome = await startServer({ PORT: String(await freePort()), DATA_DIR: path.join(file, 'data') });
    expectOneLine(outcome, 'DATA_DIR', /ENOTDIR/);
  });

  it('says that DATA_DIR may not be written by the server’s user (EACCES)', { timeout: 90_000 }, async () => {
    const dataDir = newDir('read-only-mode');
    fs.chmodSync(dataDir, 0o555);
    let asUser = {};
    let env: Record<string, string> = {};
    if (process.getuid?.() === 0) {
      // Root writes anywhere: run the server as nobody, with a temp dir it may write (tsx's cache, without the run's bundle).
      fs.chmodSync(scratch, 0o755);
      const tmp = newDir('nobody-tmp');
      fs.chmodSync(tmp, 0o777);
      asUser = { uid: 65534, gid: 65534 };
      env = { TMPDIR: tmp };
    }
    const outcome = await startServer({ ...env, PORT: String(await freePort()), DATA_DIR: dataDir }, asUser);
    expectOneLine(outcome, 'DATA_DIR', /får inte skrivas av serverns användare \(EACCES\)/);
    expect(outcome.lines[0]).toContain(dataDir);
  });

  const mountPoint = path.join(scratch, 'read-only-fs');
  fs.mkdirSync(mountPoint);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', mountPoint]).status === 0;
  if (mounted) cleanups.push(() => spawnSync('umount', [mountPoint]));
  it.skipIf(!mounted)(
    'says that DATA_DIR is on a read-only file system (EROFS), not that a file is missing',
    { timeout: 90_000 },
    async () => {
      const outcome = await startServer({ PORT: String(await freePort()), DATA_DIR: mountPoint });
      expectOneLine(outcome, 'DATA_DIR', /skrivskyddat filsystem \(EROFS\)/);
      expect(outcome.lines[0]).not.toContain('ENOENT');
    },
  );
});
