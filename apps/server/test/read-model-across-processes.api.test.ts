/**
 * Issue 23, decision 047: two server processes on one PostgreSQL, each answering the seller calls
 * from its own read model. What is committed through one is in the other's answers within a
 * second, and a session or membership revoked through one is refused or gone in the other within
 * a second: a figure, a setting, an admin's right, a session, a membership, a new account.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { TLeaderboardResponse, TMeSummaryResponse, TGroupTotalsResponse } from '@saljportalen/contract';
import { sendShopifyWebhook, swedishOrder } from './shopify-webhooks.js';
import { inspectDatabase, serverDataFolder, spawnServer, type SpawnedServer } from './spawned-server.js';
import { DEMO_TEST_PASSWORD, eventually, fullLeaderboardItems, testDbKind } from './test-server.js';

const folder = serverDataFolder('sp-read-model-');
const servers: SpawnedServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill()));
  await folder.dispose();
});

/** Within a second of the change: the bound for every process to have it. */
const WITHIN_MS = 1000;

async function call(url: string, method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(url + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

async function login(url: string, email: string, password = DEMO_TEST_PASSWORD): Promise<string> {
  const { status, body } = await call(url, 'POST', '/api/auth/login', undefined, { email, password });
  expect(status, email).toBe(200);
  return (body as { token: string }).token;
}

describe.runIf(testDbKind === 'postgres')('the read model across two processes', () => {
  it('has what one process commits in the other’s answers within a second', { timeout: 300_000 }, async () => {
    const data = await folder.fresh('shared');
    // One first, so that the other finds the demo data seeded.
    servers.push(await spawnServer({ port: 0, data, env: { JWT_SECRET: '' } }));
    servers.push(await spawnServer({ port: 0, data: { ...data, dataDir: `${data.dataDir}-b` }, env: { JWT_SECRET: '' } }));
    const [a, b] = servers as [SpawnedServer, SpawnedServer];
    const [noah] = await inspectDatabase<{ link_code: string; group_id: number; user_id: number }>(
      data,
      sql`select m.link_code, m.group_id, m.user_id from memberships m join users u on u.id = m.user_id join groups g on g.id = m.group_id
           where u.email = 'noah@demo.se' and g.code = 'BJK6B2'`,
    );
    const groupId = Number(noah!.group_id);
    const noahOnB = await login(b.url, 'noah@demo.se');
    const teacherOnA = await login(a.url, 'larare@bjorkskolan.se');
    const teacherOnB = await login(b.url, 'larare@bjorkskolan.se');
    const summaryOnB = async (token = noahOnB) => (await call(b.url, 'GET', '/api/me/summary', token)).body as TMeSummaryResponse;

    // A sale through A: B's figures have it, to the öre.
    const before = await summaryOnB();
    const sale = await sendShopifyWebhook(a.url, 'orders/create', swedishOrder({ id: 7_500_000_000_001, refCode: noah!.link_code }));
    expect(sale.status).toBe(200);
    await eventually(async () => (await summaryOnB()).personal.orders_count === before.personal.orders_count + 1, WITHIN_MS);
    expect((await summaryOnB()).personal.total_sales).toBe(before.personal.total_sales + 407);

    // A setting through A: B's totals and leaderboard show it.
    expect((await call(a.url, 'POST', '/api/group/settings', teacherOnA, { group_id: groupId, show_leaderboard: false })).status).toBe(200);
    await eventually(async () => {
      const board = (await call(b.url, 'GET', '/api/group/leaderboard-mine', noahOnB)).body as TLeaderboardResponse;
      return board.group.leaderboard_visible === false && fullLeaderboardItems(board).length === 0;
    }, WITHIN_MS);
    const totals = (await call(b.url, 'GET', '/api/group/totals', noahOnB)).body as TGroupTotalsResponse;
    expect(totals.show_leaderboard).toBe(false);

    // An admin's right revoked (by an operator, in SQL): on B the hidden list is withheld from them too.
    const teacherSees = async () =>
      fullLeaderboardItems((await call(b.url, 'GET', '/api/group/leaderboard-mine', teacherOnB)).body as TLeaderboardResponse).length;
    expect(await teacherSees()).toBeGreaterThan(0);
    await inspectDatabase(
      data,
      sql`update memberships set role = 'seller' where group_id = ${groupId}
            and user_id = (select id from users where email = 'larare@bjorkskolan.se')`,
    );
    await eventually(async () => (await teacherSees()) === 0, WITHIN_MS);

    // A session ended through A: refused by B.
    expect((await call(a.url, 'POST', '/api/auth/logout', noahOnB)).status).toBe(200);
    await eventually(async () => (await call(b.url, 'GET', '/api/me/summary', noahOnB)).status === 401, WITHIN_MS);

    // A membership gone (an operator's SQL): B shows no group for it.
    const elsaOnB = await login(b.url, 'elsa@demo.se');
    const elsaGroup = ((await summaryOnB(elsaOnB)).group_hint as { id: number }).id;
    await inspectDatabase(
      data,
      sql`with gone as (select id from memberships where group_id = ${elsaGroup} and user_id = (select id from users where email = 'elsa@demo.se')),
               unlinked as (update orders set membership_id = null where membership_id in (select id from gone))
          delete from memberships where id in (select id from gone)`,
    );
    await eventually(async () => (await summaryOnB(elsaOnB)).group_hint === null, WITHIN_MS);

    // An account made through A is known to B at once.
    const registered = await call(a.url, 'POST', '/api/auth/register-seller', undefined, {
      full_name: 'Tvåprocess Test',
      email: 'tvaprocess@demo.se',
      password: 'tvaprocess-losen1',
      group_code: 'BJK6B2',
    });
    expect(registered.status).toBe(200);
    const newToken = (registered.body as { token: string }).token;
    const fresh = await call(b.url, 'GET', '/api/me/summary', newToken);
    expect(fresh.status).toBe(200);
    expect((fresh.body as TMeSummaryResponse).user.full_name).toBe('Tvåprocess Test');
  });
});
