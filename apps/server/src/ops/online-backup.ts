/**
 * Backups of the running embedded portal (decision 015). PGlite's files belong to the server
 * while it runs, so `npm run backup` asks the server for the dump instead: over a unix socket in
 * DATA_DIR, never over the network, with a token from a file beside it. Both are readable and
 * writable by the server's user only, the same user that may read the database files themselves.
 * docs/security.md, "Backups of a running embedded portal", has the threat model.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';

export const backupSocketPath = (dataDir: string) => path.join(dataDir, 'backup.sock');
export const backupTokenPath = (dataDir: string) => path.join(dataDir, 'backup-token');

/** The one request the socket answers. */
export const BACKUP_REQUEST_PATH = '/backup';

const digest = (value: string) => crypto.createHash('sha256').update(value).digest();

function answer(response: http.ServerResponse, status: number, code: string, message: string) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: { code, message } }));
}

/**
 * Listens on DATA_DIR/backup.sock while the app runs, when the database is the embedded one on
 * `dataDir`; closed, with its token, when the app closes. The server holds the data dir's lock,
 * so a socket or token already there is a dead server's and is replaced.
 */
export async function serveOnlineBackups(app: FastifyInstance, database: Database, dataDir: string): Promise<void> {
  const dump = database.dump;
  if (!dump) return;
  const socketPath = backupSocketPath(dataDir);
  const tokenPath = backupTokenPath(dataDir);
  const token = crypto.randomBytes(32).toString('base64url');
  fs.rmSync(tokenPath, { force: true });
  // 'wx' creates the file anew, so the mode 600 holds (an existing file would keep its own).
  fs.writeFileSync(tokenPath, token, { mode: 0o600, flag: 'wx' });
  fs.rmSync(socketPath, { force: true });

  const server = http.createServer((request, response) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!crypto.timingSafeEqual(digest(given), digest(token))) {
      answer(response, 401, 'UNAUTHORIZED', 'Fel eller saknad nyckel för säkerhetskopiering.');
      return;
    }
    if (request.method !== 'GET' || request.url !== BACKUP_REQUEST_PATH) {
      answer(response, 404, 'NOT_FOUND', 'Här finns bara säkerhetskopiering: GET /backup.');
      return;
    }
    const started = Date.now();
    dump().then(
      (text) => {
        response.writeHead(200, { 'content-type': 'application/sql; charset=utf-8' }).end(text);
        app.log.info({ bytes: Buffer.byteLength(text), ms: Date.now() - started }, 'säkerhetskopia skapad medan servern kör');
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'säkerhetskopian kunde inte skapas');
        answer(response, 500, 'BACKUP_FAILED', 'Säkerhetskopian kunde inte skapas; se serverns logg.');
      },
    );
  });

  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', (error) => {
      // A data dir whose path is too long for a socket (about 100 characters): the portal runs,
      // and `npm run backup` says to stop it first, as before.
      app.log.warn({ err: error }, `säkerhetskopiering medan servern kör är inte tillgänglig (${socketPath})`);
      resolve(false);
    });
    server.listen(socketPath, () => resolve(true));
  });
  if (!listening) {
    fs.rmSync(tokenPath, { force: true });
    return;
  }
  fs.chmodSync(socketPath, 0o600);

  app.addHook('onClose', async () => {
    server.closeIdleConnections();
    // A backup being written is finished first; the database closes after the app.
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(tokenPath, { force: true });
    fs.rmSync(socketPath, { force: true });
  });
}

/**
 * The client side, for `npm run backup`: asks the server running on `dataDir` for a dump and
 * writes it to `partial` (mode 600). Undefined when no server listens there.
 */
export async function requestOnlineBackup(dataDir: string, partial: string): Promise<'written' | undefined> {
  const socketPath = backupSocketPath(dataDir);
  const tokenPath = backupTokenPath(dataDir);
  if (!fs.existsSync(socketPath) || !fs.existsSync(tokenPath)) return undefined;
  const token = fs.readFileSync(tokenPath, 'utf8').trim();
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath, path: BACKUP_REQUEST_PATH, method: 'GET', headers: { authorization: `Bearer ${token}` } },
      (response) => {
        if (response.statusCode !== 200) {
          let body = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          response.once('end', () => {
            const message = (() => {
              try {
                return (JSON.parse(body) as { error: { message: string } }).error.message;
              } catch {
                return `svar ${response.statusCode}`;
              }
            })();
            reject(new Error(`Servern kunde inte göra säkerhetskopian: ${message}`));
          });
          return;
        }
        const file = fs.createWriteStream(partial, { mode: 0o600, flags: 'wx' });
        response.pipe(file);
        file.once('finish', () => resolve('written'));
        file.once('error', reject);
        response.once('error', reject);
      },
    );
    request.once('error', (error: NodeJS.ErrnoException) =>
      // A socket left by a server that was killed: nobody answers.
      error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? resolve(undefined) : reject(error),
    );
    request.end();
  });
}
