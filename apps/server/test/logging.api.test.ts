/**
 * Issue 8, what is never logged (docs/security.md): the real server, at debug level, goes through
 * sign-in, refresh, a password reset, a registration, a password change and Shopify orders that
 * carry a buyer's address, with a mail server that refuses every recipient by name, as real ones
 * do, so that failures are logged too. Its whole log then holds no password, no token, no reset
 * code and no e-mail address.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAdminGroupListResponse } from '@saljportalen/contract';
import { sendShopifyWebhook, swedishOrder } from './shopify-webhooks.js';
import { spawnServer, type LogEntry, type SpawnedServer } from './spawned-server.js';
import { createPostgresDatabase, testDbKind } from './test-server.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-logging-'));
let postgres: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
let server: SpawnedServer;
let smtp: net.Server;

/** Just enough SMTP to refuse each recipient the way Postfix does: naming the address. */
function refusingMailServer(): Promise<number> {
  smtp = net.createServer((socket) => {
    socket.write('220 smtp.exempel.se ESMTP\r\n');
    socket.setEncoding('utf8').on('data', (data: string) => {
      for (const command of data.split('\r\n').filter(Boolean)) {
        const recipient = /^RCPT TO:\s*<([^>]*)>/i.exec(command);
        if (recipient) socket.write(`550 5.1.1 <${recipient[1]}>: Recipient address rejected: User unknown\r\n`);
        else if (/^QUIT/i.test(command)) socket.end('221 Bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  return new Promise((resolve) => smtp.listen(0, '127.0.0.1', () => resolve((smtp.address() as net.AddressInfo).port)));
}

/** A new mail's first refused attempt, as the mail outbox logs it (it retries later). */
const firstFailure = (entry: LogEntry) => entry.msg === 'kunde inte skicka e-post, försöker igen senare' && entry.attempts === 1;

const SECRETS = {
  passwords: ['demo1234', 'Fel-Lösen-123', 'Nytt-Hemligt-999', 'Elev-Hemligt-77', 'Byt-Hemligt-55'],
  resetCode: 'HEMLIGKOD-1234567890abcdef',
};
const secretsSeen: string[] = [];

beforeAll(async () => {
  postgres = testDbKind === 'postgres' ? await createPostgresDatabase() : undefined;
  server = await spawnServer({
    port: 0,
    data: { dataDir, databaseUrl: postgres?.url },
    env: { LOG_LEVEL: 'debug', SMTP_URL: `smtp://127.0.0.1:${await refusingMailServer()}` },
  });
}, 120_000);

afterAll(async () => {
  if (server?.child.exitCode === null) await server.kill();
  smtp?.close();
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const post = (urlPath: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(server.url + urlPath, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('the log', () => {
  it('holds no password, token, reset code or e-mail address after a day of the portal’s work', { timeout: 180_000 }, async () => {
    const login = await post('/api/auth/login', { email: 'elsa@demo.se', password: 'demo1234' });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    secretsSeen.push(token, cookie.split('=')[1]!);

    expect((await post('/api/auth/login', { email: 'hemlig.person@exempel.se', password: 'Fel-Lösen-123' })).status).toBe(401);
    const refreshed = await post('/api/auth/refresh', {}, { cookie });
    expect(refreshed.status).toBe(200);
    secretsSeen.push(
      ((await refreshed.json()) as { token: string }).token,
      refreshed.headers.get('set-cookie')!.split(';')[0]!.split('=')[1]!,
    );
    expect((await fetch(`${server.url}/api/me/summary`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    const resetMailFailed = server.waitForLog((entry) => firstFailure(entry));
    expect((await post('/api/auth/forgot-password', { email: 'elsa@demo.se' })).status).toBe(200);
    await resetMailFailed;
    // The reset link is a page of the web app: its code arrives in the address of a GET.
    await fetch(`${server.url}/auth/reset-password?code=${SECRETS.resetCode}&email=elsa@demo.se`);
    expect((await post('/api/auth/reset-password', { code: SECRETS.resetCode, new_password: 'Nytt-Hemligt-999' })).status).toBe(400);

    expect(
      (
        await post('/api/auth/register-seller', {
          full_name: 'Ny Elev',
          email: 'ny.elev@exempel.se',
          password: 'Elev-Hemligt-77',
          group_code: 'BJK6B2',
        })
      ).status,
    ).toBe(200);
    const noticeFailed = server.waitForLog((entry) => firstFailure(entry));
    const changed = await post(
      '/api/account/change-password',
      { current_password: 'demo1234', new_password: 'Byt-Hemligt-55' },
      { authorization: `Bearer ${token}` },
    );
    expect(changed.status).toBe(200);
    await noticeFailed;

    // A superadmin adds a person: the welcome mail is refused, naming the address.
    const superadmin = (
      (await (await post('/api/auth/login', { email: 'admin@saljportalen.se', password: 'demo1234' })).json()) as { token: string }
    ).token;
    secretsSeen.push(superadmin);
    const welcomeFailed = server.waitForLog((entry) => firstFailure(entry));
    const { items } = (await (
      await fetch(`${server.url}/api/admin/groups`, { headers: { authorization: `Bearer ${superadmin}` } })
    ).json()) as TAdminGroupListResponse;
    const groupId = items[0]!.id;
    const added = await post(
      `/api/admin/groups/${groupId}/add-user`,
      { email: 'ny.foralder@exempel.se', role: 'seller', full_name: 'Ny Förälder' },
      { authorization: `Bearer ${superadmin}` },
    );
    expect(added.status).toBe(200);
    await welcomeFailed;

    // Shopify's orders carry the buyer's e-mail address, in the sample and in an order that fails.
    expect(
      (await sendShopifyWebhook(server.url, 'orders/create', swedishOrder({ id: 7_900_000_000_001, refCode: 'DEMO0003' }))).status,
    ).toBe(200);
    const broken = { ...swedishOrder({ id: 7_900_000_000_002 }), line_items: 'köparen@exempel.se' };
    expect((await sendShopifyWebhook(server.url, 'orders/create', broken)).status).toBe(200);

    // A delivery that is not the shop's: refused, and the refusal logged without its body.
    const forged = JSON.stringify(swedishOrder({ id: 7_900_000_000_003 }));
    const refusalLogged = server.waitForLog((entry) => entry.code === 'INVALID_SIGNATURE');
    expect((await sendShopifyWebhook(server.url, 'orders/create', forged, { hmac: 'förfalskad' })).status).toBe(401);
    expect(await refusalLogged).toMatchObject({ level: 40, method: 'POST', url: '/api/webhooks/shopify' });

    if (postgres) {
      // PostgreSQL cuts the server's idle connections (a restart, a failover): the pool says so in the
      // JSON log, and the outage is a warning once (the further connections it closes are info).
      const cut = server.waitForLog((entry) => entry.msg === 'PostgreSQL-anslutning stängd');
      const warned = server.waitForLog((entry) => entry.level === 40 && String(entry.msg).startsWith('databasen svarar inte'));
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      await admin.end();
      expect(await cut).toMatchObject({ err: expect.anything() });
      await warned;
    }

    await server.kill('SIGTERM');
    const log = server.logLines().join('\n');
    const entries = server.logEntries();

    // Which migrations ran on this new database, by name.
    expect(entries.find((entry) => String(entry.msg).startsWith('databasmigreringar körda'))?.migrations).toEqual(
      expect.arrayContaining(['0000_initial', '0008_membership-figures-group']),
    );
    // Each request's closing line: method, path without its query, status.
    const completed = entries.filter((entry) => entry.msg === 'request completed');
    expect(completed).toContainEqual(expect.objectContaining({ method: 'POST', url: '/api/auth/login', statusCode: 200 }));
    expect(completed).toContainEqual(expect.objectContaining({ method: 'POST', url: '/api/auth/login', statusCode: 401 }));
    expect(completed).toContainEqual(expect.objectContaining({ method: 'GET', url: '/auth/reset-password', statusCode: 404 }));
    for (const entry of completed) expect(String(entry.url)).not.toContain('?');
    expect(log).not.toContain('förfalskad');
    // Nothing reached the console beside the JSON log but the start banner.
    expect(server.output()).not.toMatch(/^PostgreSQL-anslutning stängd/m);

    // The log did see all of it: the requests, the failed mails, the order, the reset page.
    expect(log).toContain('/api/auth/login');
    expect(log).toContain('/auth/reset-password?code=%5Bdold%5D&email=%5Bdold%5D');
    expect(log).toContain('webhook behandlad');
    expect(log).toContain('Recipient address rejected');

    for (const password of SECRETS.passwords) expect(log, `lösenordet ${password}`).not.toContain(password);
    for (const secret of secretsSeen) expect(log, 'en token').not.toContain(secret);
    expect(log).not.toContain(SECRETS.resetCode);
    expect(log.match(/[^\s"'<>@,;:()[\]]+@[^\s"'<>@,;:()[\]]+/g) ?? []).toEqual([]);
  });

  it(
    'warns once at start without SHOPIFY_WEBHOOK_SECRET, and refuses a delivery in Swedish without a stack',
    { timeout: 180_000 },
    async () => {
      const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-logging-unsigned-'));
      const otherDatabase = testDbKind === 'postgres' ? await createPostgresDatabase() : undefined;
      const unconfigured = await spawnServer({
        port: 0,
        data: { dataDir: otherDir, databaseUrl: otherDatabase?.url },
        env: { SHOPIFY_WEBHOOK_SECRET: '', SEED_DEMO: '0' },
      });
      try {
        const response = await sendShopifyWebhook(unconfigured.url, 'orders/create', swedishOrder({ id: 7_900_000_000_004 }));
        expect(response.status).toBe(503);
        expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/SHOPIFY_WEBHOOK_SECRET saknas/);
      } finally {
        await unconfigured.kill('SIGTERM');
        await otherDatabase?.drop();
        fs.rmSync(otherDir, { recursive: true, force: true });
      }
      const entries = unconfigured.logEntries();
      const warnings = entries.filter((entry) => String(entry.msg).includes('SHOPIFY_WEBHOOK_SECRET'));
      expect(warnings.map((entry) => entry.level)).toEqual([40, 40]);
      expect(warnings[0]!.reqId).toBeUndefined();
      expect(warnings[1]).toMatchObject({ code: 'NOT_CONFIGURED', url: '/api/webhooks/shopify' });
      expect(unconfigured.logLines().join('\n')).not.toContain('stack');
    },
  );
});
