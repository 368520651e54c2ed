/**
 * Issue 17, point 4: the mail server goes away (decision 023). A real SMTP server (smtp-server)
 * runs in the test and refuses, then accepts. The actions that send mail answer 200 while it
 * refuses; their mails wait in the mail_outbox table, and every one arrives exactly once after
 * it accepts. On PostgreSQL, a refused mail survives a restart, and two server processes share one
 * outbox and still send each mail once.
 */
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from './admin-fixtures.js';
import { createPostgresDatabase, eventually, startTestServer, testDbKind, type TestServer } from './test-server.js';

interface Received {
  to: string[];
  message: string;
}

/** The message as text, its quoted-printable soft breaks and escapes undone (enough to find a link). */
const quotedPrintable = (raw: Buffer) =>
  Buffer.from(
    raw
      .toString('latin1')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** A local SMTP server that refuses every connection with 421 while `refusing`, then takes mail. */
async function startSmtpServer() {
  const received: Received[] = [];
  const state = { refusing: true, refusals: 0 };
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      if (!state.refusing) return callback();
      state.refusals++;
      callback(Object.assign(new Error('Tjänsten är tillfälligt otillgänglig, försök senare'), { responseCode: 421 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((address) => address.address), message: quotedPrintable(Buffer.concat(chunks)) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    state,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;
interface OutboxRow {
  id: number;
  to: string;
  attempts: number;
  sent_at: Date | null;
  given_up_at: Date | null;
  last_error: string | null;
}
const outboxRows = (server: TestServer) =>
  sqlRows<OutboxRow>(server.app.db, sql`select id, "to", attempts, sent_at, given_up_at, last_error from mail_outbox order by id`);
const uniqueEmail = (label: string) => `${label}-${crypto.randomBytes(4).toString('hex')}@exempel.se`;

let smtp: Smtp;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  // The first retry after 100 ms, doubling up to 3 s: the shape of production's 30 s to 15 minutes.
  server = await startTestServer({ seed: true, env: { SMTP_URL: smtp.url, MAIL_RETRY_MS: '100' } });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('the mail server refuses, then accepts (decision 023)', () => {
  it('answers the actions with 200 while SMTP refuses, and delivers every mail exactly once when it accepts', async () => {
    const admin = await server.login('admin@saljportalen.se');
    const seller = await server.login('elsa@demo.se');
    const newUser = uniqueEmail('ny.saljare');
    const groupAdmin = uniqueEmail('ny.ledare');
    const [scouts] = await sqlRows<{ id: number }>(server.app.db, sql`select id from groups where code = 'SCT482'`);

    const answers = [
      await server.request('POST', '/api/auth/forgot-password', { body: { email: 'noah@demo.se' } }),
      await server.request('POST', `/api/admin/groups/${scouts!.id}/add-user`, {
        token: admin,
        body: { email: newUser, role: 'seller', full_name: 'Ny Säljare', phone: '' },
      }),
      await server.request('POST', '/api/admin/groups/create', {
        token: admin,
        body: { group_name: 'Fotbollslaget F12', admin: { email: groupAdmin, password: 'hemligt123', full_name: 'Ny Ledare', phone: '' } },
      }),
      await server.request('POST', '/api/account/change-password', {
        token: seller,
        body: { current_password: 'demo1234', new_password: 'nytt-losen-123' },
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const expected = ['noah@demo.se', newUser, groupAdmin, 'elsa@demo.se'].sort();

    // Every mail is queued and retried with backoff while the server refuses; none is lost or given up.
    const refused = await eventually(async () => {
      const rows = await outboxRows(server);
      return rows.length === 4 && rows.every((row) => row.attempts >= 3) ? rows : undefined;
    }, 30_000);
    expect(refused.map((row) => row.to).sort()).toEqual(expected);
    expect(refused.every((row) => row.sent_at === null && row.given_up_at === null)).toBe(true);
    expect(smtp.received).toEqual([]);
    expect(smtp.state.refusals).toBeGreaterThanOrEqual(4);
    // Why it failed is kept, with no address in it.
    for (const row of refused) {
      expect(row.last_error).toContain('421');
      expect(row.last_error).not.toContain('@');
    }

    smtp.state.refusing = false;
    const sent = await eventually(async () => {
      const rows = await outboxRows(server);
      return rows.every((row) => row.sent_at !== null) ? rows : undefined;
    }, 30_000);
    expect(sent).toHaveLength(4);
    // Exactly once each: a sent row is never claimed again.
    expect(smtp.received.flatMap((mail) => mail.to).sort()).toEqual(expected);
    const reset = smtp.received.find((mail) => mail.to.includes('noah@demo.se'))!;
    expect(reset.message).toMatch(/reset-password\?code=/);
  });

  it('queues no mail for an action that fails', async () => {
    const admin = await server.login('admin@saljportalen.se');
    const before = (await outboxRows(server)).length;
    const answer = await server.request('POST', '/api/admin/groups/999999/add-user', {
      token: admin,
      body: { email: uniqueEmail('ingen'), role: 'seller', full_name: 'Ingen Alls', phone: '' },
    });
    expect(answer.status).toBe(404);
    expect(await outboxRows(server)).toHaveLength(before);
  });

  it.runIf(testDbKind === 'postgres')('keeps a refused mail over a restart, and the next server delivers it', async () => {
    smtp.state.refusing = true;
    const database = await createPostgresDatabase();
    const env = { DATABASE_URL: database.url, SMTP_URL: smtp.url, MAIL_RETRY_MS: '100' };
    try {
      const before = await startTestServer({ seed: true, env });
      const receivedBefore = smtp.received.length;
      expect((await before.request('POST', '/api/auth/forgot-password', { body: { email: 'noah@demo.se' } })).status).toBe(200);
      await eventually(async () => (await outboxRows(before)).some((row) => row.attempts >= 2), 20_000);
      await before.close();

      const after = await startTestServer({ env });
      try {
        smtp.state.refusing = false;
        const [row] = await eventually(async () => {
          const rows = await outboxRows(after);
          return rows.length === 1 && rows[0]!.sent_at !== null ? rows : undefined;
        }, 30_000);
        expect(row!.attempts).toBeGreaterThanOrEqual(3);
        expect(smtp.received.slice(receivedBefore).map((mail) => mail.to)).toEqual([['noah@demo.se']]);
      } finally {
        await after.close();
      }
    } finally {
      await database.drop();
    }
  });

  it.runIf(testDbKind === 'postgres')('two server processes on one PostgreSQL send each mail once', async () => {
    smtp.state.refusing = true;
    const second = await startTestServer({
      env: { DATABASE_URL: server.app.config.databaseUrl!, SMTP_URL: smtp.url, MAIL_RETRY_MS: '100' },
    });
    try {
      const receivedBefore = smtp.received.length;
      const rowsBefore = (await outboxRows(server)).length;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          (index % 2 === 0 ? server : second).request('POST', '/api/auth/forgot-password', { body: { email: 'noah@demo.se' } }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
      await eventually(async () => (await outboxRows(server)).length === rowsBefore + 20, 20_000);
      smtp.state.refusing = false;
      await eventually(async () => (await outboxRows(server)).every((row) => row.sent_at !== null), 30_000);
      const codes = smtp.received.slice(receivedBefore).map((mail) => /reset-password\?code=(\S+)/.exec(mail.message)?.[1]);
      expect(codes.every(Boolean)).toBe(true);
      expect(codes).toHaveLength(20);
      expect(new Set(codes).size).toBe(20);
    } finally {
      await second.close();
    }
  });
});
