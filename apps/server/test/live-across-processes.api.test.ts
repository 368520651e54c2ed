/**
 * Issue 20 §4 and DESIGN D11: two server processes on one PostgreSQL. A signed webhook sent to one
 * reaches a live-figure stream held by the other, through PostgreSQL's LISTEN/NOTIFY: no process
 * knows of the other, and nothing polls.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openEventStream } from './event-streams.js';
import { sendShopifyWebhook, swedishOrder } from './shopify-webhooks.js';
import { inspectDatabase, spawnServer, type SpawnedServer } from './spawned-server.js';
import { DEMO_TEST_PASSWORD, createPostgresDatabase, testDbKind } from './test-server.js';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-live-'));
const servers: SpawnedServer[] = [];
let postgres: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;

afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill()));
  await postgres?.drop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('live figures across processes', () => {
  it.runIf(testDbKind === 'postgres')('a webhook sent to one process reaches a stream held by another', { timeout: 300_000 }, async () => {
    postgres = await createPostgresDatabase();
    const data = (name: string) => ({ dataDir: path.join(workDir, name), databaseUrl: postgres!.url });
    // One first, so the other finds the demo data seeded.
    servers.push(await spawnServer({ port: 0, data: data('a'), env: { JWT_SECRET: '' } }));
    servers.push(await spawnServer({ port: 0, data: data('b'), env: { JWT_SECRET: '' } }));
    const [a, b] = servers as [SpawnedServer, SpawnedServer];

    const login = await fetch(`${b.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'noah@demo.se', password: DEMO_TEST_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const stream = await openEventStream(b.url, { token });
    expect(stream.status).toBe(200);

    const [noah] = await inspectDatabase<{ link_code: string; group_id: number }>(
      data('a'),
      sql`select m.link_code, m.group_id from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
           where u.email = 'noah@demo.se' and g.code = 'BJK6B2'`,
    );
    const response = await sendShopifyWebhook(a.url, 'orders/create', swedishOrder({ id: 7_400_000_000_001, refCode: noah!.link_code }));
    expect(response.status).toBe(200);
    const answeredAt = Date.now();

    const figures = await stream.next((event) => event.event === 'figures', 1000);
    expect(figures.data).toMatchObject({ group_id: Number(noah!.group_id) });
    expect(figures.at - answeredAt).toBeLessThan(1000);
    expect((await stream.next((event) => event.event === 'sale', 1000)).data).toEqual({
      group_id: Number(noah!.group_id),
      amount: 407,
      data_version: expect.any(Number),
    });
    stream.close();
  });
});
