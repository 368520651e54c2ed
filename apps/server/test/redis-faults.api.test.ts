/**
 * Issue 17, point 3: Redis goes away (decision 022). The server's REDIS_URL goes through a fault
 * proxy (fault-proxy.ts) that the test cuts and blackholes, never the machine's shared Redis.
 * While Redis is away sign-in, registration and signed webhooks keep working, the limits still
 * apply (counted in the database), nothing answers 500; when it comes back Redis counts again.
 */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from './admin-fixtures.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { sendShopifyWebhook, swedishOrder } from './shopify-webhooks.js';
import { eventually, startTestServer, type TestServer } from './test-server.js';
import { redisReachable, TEST_REDIS, TEST_REDIS_URL } from './test-redis.js';

const randomAddress = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
const uniqueEmail = (label: string) => `${label}-${crypto.randomBytes(4).toString('hex')}@exempel.se`;

let available = false;
let proxy: FaultProxy;
let server: TestServer;
/** Every status the server answered in this file, to show that none was a 500. */
const statuses: number[] = [];

beforeAll(async () => {
  available = await redisReachable();
  if (!available) {
    if (process.env.CI) throw new Error(`Redis svarar inte på ${TEST_REDIS_URL}`);
    return;
  }
  proxy = await startFaultProxy(TEST_REDIS);
  server = await startTestServer({ seed: true, env: { RATE_LIMITS: '1', REDIS_URL: proxy.through(TEST_REDIS_URL) } });
});
afterAll(async () => {
  await server?.close();
  await proxy?.close();
});

const answered = async (response: Promise<Response>) => {
  const settled = await response;
  statuses.push(settled.status);
  return settled.status;
};
const login = (email: string, password: string, address: string) =>
  answered(server.request('POST', '/api/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': address } }));
const register = (email: string, address: string) =>
  answered(
    server.request('POST', '/api/auth/register-seller', {
      body: { full_name: 'Redis Testsson', email, password: 'hemligt123', group_code: 'SCT482' },
      headers: { 'x-forwarded-for': address },
    }),
  );
/** Rows of the database's limit counters: they grow only while the counting falls back to the database. */
const databaseCounters = async () =>
  Number((await sqlRows<{ n: number }>(server.app.db, sql`select count(*)::int as n from rate_limits`))[0]!.n);

let nextOrderId = 7_400_000_000_001;
async function sendOrders(count: number) {
  const ids = Array.from({ length: count }, () => nextOrderId++);
  const statuses = await Promise.all(ids.map((id) => answered(sendShopifyWebhook(server.url, 'orders/create', swedishOrder({ id })))));
  return { ids, statuses };
}
const storedOrders = async (ids: number[]) =>
  Number(
    (
      await sqlRows<{ n: number }>(
        server.app.db,
        sql`select count(*)::int as n from orders where shopify_order_id in (${sql.join(
          ids.map((id) => sql`${String(id)}::bigint`),
          sql`, `,
        )})`,
      )
    )[0]!.n,
  );

/** Waits until a wrong password is counted in Redis again (the database counters stay as they are). */
async function untilRedisCounts() {
  await eventually(async () => {
    const before = await databaseCounters();
    await login(uniqueEmail('tillbaka'), 'fel-lösenord', randomAddress());
    return (await databaseCounters()) === before;
  }, 20_000);
}

/** What a person and Shopify do while Redis is away; each must succeed. */
async function everydayTraffic() {
  expect(await login('noah@demo.se', 'demo1234', randomAddress())).toBe(200);
  expect(await register(uniqueEmail('elev'), randomAddress())).toBe(200);
  const orders = await sendOrders(5);
  expect(orders.statuses).toEqual(Array(5).fill(200));
  // An acknowledged webhook is an order, once.
  await eventually(async () => (await storedOrders(orders.ids)) === 5);
}

/** Ten wrong passwords from one address, then that address is held back for the account. */
async function expectAccountLimitHolds() {
  const email = uniqueEmail('gissad');
  const guesser = randomAddress();
  for (let attempt = 0; attempt < 10; attempt++) expect(await login(email, 'fel-lösenord', guesser)).toBe(401);
  expect(await login(email, 'fel-lösenord', guesser)).toBe(429);
}

describe('Redis goes away (decision 022)', () => {
  it('counts in Redis while it answers: the database counters do not grow', async (context) => {
    if (!available) return context.skip();
    // A busy machine may start the server before Redis answered; it then starts on the database.
    await untilRedisCounts();
    const before = await databaseCounters();
    await expectAccountLimitHolds();
    expect(await register(uniqueEmail('elev'), randomAddress())).toBe(200);
    expect(await databaseCounters()).toBe(before);
  });

  it('cut: sign-in, registration and webhooks work, the limits count in the database, nothing answers 500', async (context) => {
    if (!available) return context.skip();
    proxy.cut();
    const before = await databaseCounters();
    await everydayTraffic();
    await expectAccountLimitHolds();
    expect(await databaseCounters()).toBeGreaterThan(before);
  });

  it('blackholed (Redis accepts and never answers): the same, each request waiting at most one command timeout', async (context) => {
    if (!available) return context.skip();
    proxy.restore();
    // Redis is used again first, so that the blackhole meets a live connection.
    await untilRedisCounts();
    proxy.blackhole();
    await everydayTraffic();
    await expectAccountLimitHolds();
  });

  it('comes back: Redis counts again, with no restart', async (context) => {
    if (!available) return context.skip();
    proxy.restore();
    await untilRedisCounts();
    const before = await databaseCounters();
    await everydayTraffic();
    await expectAccountLimitHolds();
    expect(await databaseCounters()).toBe(before);
  });

  it('answered no request with a 500 or 503', (context) => {
    if (!available) return context.skip();
    expect(statuses.length).toBeGreaterThan(50);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });
});
