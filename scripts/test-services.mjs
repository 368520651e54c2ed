// What `npm test` needs besides Node, brought by the test command itself (decision 017):
// Debian's chromium-headless-shell, poppler-utils, zbar-tools and redis-server; a PostgreSQL and a Redis that answer.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** The programs the tests call, and the Debian package each comes in. */
const PROGRAMS = [
  { command: 'chromium-headless-shell', pkg: 'chromium-headless-shell', why: 'webbläsartesterna' },
  { command: 'pdftotext', pkg: 'poppler-utils', why: 'PDF-testerna' },
  { command: 'zbarimg', pkg: 'zbar-tools', why: 'QR-koderna i PDF-testerna' },
  { command: 'redis-server', pkg: 'redis-server', why: 'gränstestet med två servrar' },
];

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const isDebianRoot = () => fs.existsSync('/etc/debian_version') && process.getuid?.() === 0 && onPath('apt-get');

/** Installs Debian packages as root, or stops with the one command that would. */
function aptInstall(packages, reason) {
  if (packages.length === 0) return;
  const command = `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  if (!isDebianRoot()) {
    console.error(`\nTesterna behöver ${reason}. Kör först: sudo ${command}`);
    process.exit(1);
  }
  console.log(`\n=== installerar ${reason} ===`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...packages],
  ]) {
    if (spawnSync('apt-get', args, { stdio: 'inherit', env }).status !== 0) {
      console.error(`\napt-get ${args[0]} misslyckades. Kör själv: ${command}`);
      process.exit(1);
    }
  }
}

async function postgresAnswers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

function portAnswers(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** The newest PostgreSQL server binaries Debian's packages installed, e.g. /usr/lib/postgresql/15/bin. */
function postgresBinDir() {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(root, versions[0], 'bin');
}

/**
 * A throwaway PostgreSQL cluster for this run: trust auth on a free loopback port, owned by the
 * `postgres` user (PostgreSQL refuses to run as root), removed when the tests end.
 */
async function startOwnPostgres(cleanups) {
  let binDir = postgresBinDir();
  if (!binDir) {
    aptInstall(['postgresql'], 'postgresql (en PostgreSQL-server för API-testerna)');
    binDir = postgresBinDir();
  }
  const asRoot = process.getuid?.() === 0;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-test-postgres-'));
  const run = (program, args) => {
    const [command, commandArgs] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(binDir, program), ...args]]
      : [path.join(binDir, program), args];
    return spawnSync(command, commandArgs, { stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
  };
  if (asRoot) spawnSync('chown', ['postgres:postgres', dataDir]);
  const port = await freePort();
  console.log(`\n=== startar en egen PostgreSQL (${binDir}) på 127.0.0.1:${port} för testerna ===`);
  const started =
    run('initdb', ['-D', dataDir, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C.UTF-8']) &&
    run('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      path.join(dataDir, 'server.log'),
      '-w',
      '-o',
      `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1`,
      'start',
    ]);
  if (!started) {
    console.error(`\nKunde inte starta PostgreSQL i ${dataDir}; se ${path.join(dataDir, 'server.log')}.`);
    process.exit(1);
  }
  cleanups.push(() => {
    run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const url = `postgres://postgres@127.0.0.1:${port}/test`;
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('create database test');
  await admin.end();
  return url;
}

/**
 * Makes sure every tool and service the tests use is there, and returns the PostgreSQL URL to
 * test against and a function that stops what was started here.
 */
export async function prepareTestServices({ postgresUrl }) {
  const cleanups = [];
  const missing = PROGRAMS.filter(({ command }) => !onPath(command));
  aptInstall(
    missing.map(({ pkg }) => pkg),
    missing.map(({ pkg, why }) => `${pkg} (${why})`).join(', '),
  );

  let url = postgresUrl;
  if (!(await postgresAnswers(url))) {
    if (process.env.TEST_POSTGRES_URL) {
      console.error(`\nPostgreSQL på TEST_POSTGRES_URL (${url}) svarar inte.`);
      process.exit(1);
    }
    url = await startOwnPostgres(cleanups);
  }

  if (!(await portAnswers(6379))) {
    console.log('\n=== startar redis-server på 127.0.0.1:6379 för testerna ===');
    const redis = spawn('redis-server', ['--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    cleanups.push(() => redis.kill('SIGTERM'));
    for (let attempt = 0; attempt < 50 && !(await portAnswers(6379)); attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // Also on a crash or Ctrl-C: nothing this run started outlives it.
  const stop = () => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  };
  process.on('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
  return { postgresUrl: url, stop };
}
