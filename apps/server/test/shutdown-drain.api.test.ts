/**
 * Issue 18, shutdown under load: Shopify deliveries arrive on keep-alive connections while the
 * real server gets SIGTERM (PGlite or PostgreSQL, by TEST_DB). What is guaranteed, and checked:
 * - every request sent on a connection the server had accepted gets an answer: none is reset;
 * - an answer is a 200 or the portal's own Swedish JSON error, never Fastify's English 503;
 * - after SIGTERM answers carry `Connection: close`, and a new connection is refused;
 * - every delivery answered 200 is stored, the process exits with 0.
 * What is not: a new connection that reaches the listener in the instant it closes can be reset
 * by the kernel; such a request was never accepted, and the test counts it apart.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendSignedOverHttp, swedishOrder } from './shopify-webhooks.js';
import { freePort, inspectDatabase, spawnServer, type ServerData } from './spawned-server.js';
import { copyTemplateDatabase, createPostgresDatabase, testDbKind } from './test-server.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-drain-'));
let postgres: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
const data = (): ServerData => ({ dataDir, databaseUrl: postgres?.url });

beforeAll(async () => {
  // A copy of the run's seeded database (the server need not start on an empty one here).
  postgres = testDbKind === 'postgres' ? await createPostgresDatabase('seeded') : undefined;
  if (!postgres) copyTemplateDatabase('seeded', dataDir);
});
afterAll(async () => {
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Outcome {
  /** Whether the request went out on a connection that had already carried one (so the server had accepted it). */
  reused: boolean;
  afterSigterm: boolean;
  status?: number;
  connection?: string;
  body?: string;
  error?: string;
  webhookId: string;
}

let nextOrderId = 7_700_000_000_000;

/** One signed orders/create delivery over `agent`, resolved with what became of it. */
function deliver(port: number, agent: http.Agent, sigtermSent: () => boolean): Promise<Outcome> {
  const afterSigterm = sigtermSent();
  const { request, webhookId } = sendSignedOverHttp({
    port,
    agent,
    topic: 'orders/create',
    payload: swedishOrder({ id: nextOrderId++, refCode: 'DEMO0003' }),
  });
  return new Promise((resolve) => {
    request.once('response', (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.once('end', () =>
        resolve({
          reused: request.reusedSocket,
          afterSigterm,
          status: response.statusCode,
          connection: response.headers.connection,
          body: text,
          webhookId,
        }),
      );
    });
    request.once('error', (error: NodeJS.ErrnoException) =>
      resolve({ reused: request.reusedSocket, afterSigterm, error: error.code ?? error.message, webhookId }),
    );
  });
}

describe('shutdown under load', () => {
  it('answers every request it accepted, in its own words, and closes idle connections', { timeout: 300_000 }, async () => {
    const port = await freePort();
    const server = await spawnServer({ port, data: data() });
    let sigterm = false;
    const sigtermSent = () => sigterm;

    // Connections that carry one request and then stay idle: the server must close them itself.
    const idleAgents = Array.from({ length: 4 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    const idleClosed: Promise<void>[] = [];
    for (const agent of idleAgents) {
      const first = await deliver(port, agent, sigtermSent);
      expect(first.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const [socket] = Object.values(agent.freeSockets).flat();
      idleClosed.push(new Promise((resolve) => socket!.once('close', () => resolve())));
    }

    // Busy keep-alive connections, one delivery after the other, until the server stops taking them.
    const outcomes: Outcome[] = [];
    const workers = Array.from({ length: 12 }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      for (;;) {
        const outcome = await deliver(port, agent, sigtermSent);
        outcomes.push(outcome);
        if (outcome.error) break;
      }
      agent.destroy();
    });
    while (outcomes.length < 60) await new Promise((resolve) => setTimeout(resolve, 10));
    sigterm = true;
    server.child.kill('SIGTERM');
    await Promise.all(workers);
    const exited = await server.exited;
    await Promise.all(idleClosed);
    for (const agent of idleAgents) agent.destroy();

    expect(exited).toEqual({ code: 0, signal: null });
    const answered = outcomes.filter((outcome) => outcome.status !== undefined);
    const failed = outcomes.filter((outcome) => outcome.error);
    // Nothing sent on a connection the server had accepted was lost.
    expect(failed.filter((outcome) => outcome.reused)).toEqual([]);
    // A new connection after SIGTERM is refused (or, in the instant the listener closes, reset before it was accepted).
    for (const outcome of failed) expect(['ECONNREFUSED', 'ECONNRESET']).toContain(outcome.error);
    for (const outcome of answered) {
      if (outcome.status === 200) continue;
      const error = (JSON.parse(outcome.body!) as { error: { code: string; message: string } }).error;
      expect(error.code).toMatch(/^[A-Z_]+$/);
      expect(error.message).not.toMatch(/Service Unavailable/);
    }
    expect(answered.every((outcome) => outcome.status === 200)).toBe(true);
    // Requests that arrived after SIGTERM on open connections were answered, and told to close.
    const late = answered.filter((outcome) => outcome.afterSigterm);
    expect(late.some((outcome) => outcome.connection === 'close')).toBe(true);

    const stored = new Set(
      (await inspectDatabase<{ webhook_id: string }>(data(), sql`select webhook_id from webhook_events`)).map((row) => row.webhook_id),
    );
    for (const outcome of answered) expect(stored.has(outcome.webhookId), outcome.webhookId).toBe(true);

    const log = server.logLines().join('\n');
    expect(log).not.toContain('refusing to accept new requests');
  });
});
