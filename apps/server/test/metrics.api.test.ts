/**
 * Issue 21 §1: GET /metrics in Prometheus text format, read over real HTTP from the real server
 * on PGlite and on PostgreSQL, after real requests, signed webhooks and mails.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendShopifyWebhook, shopifyFixture } from './shopify-webhooks.js';
import { eventually, startTestServer, testDbKind, type TestServer } from './test-server.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Reads the text exposition format (version 0.0.4) strictly: every line is a comment (# HELP,
 * # TYPE) or a sample `name{label="value",…} number`, and every sample belongs to a declared family.
 */
function parseExposition(text: string): Sample[] {
  const declared = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      declared.add(type[1]!);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue;
    // prom-client writes NaN as `Nan`; Prometheus reads numbers case-insensitively.
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/i.exec(line);
    if (!sample) throw new Error(`ingen giltig rad i exponeringsformatet: ${line}`);
    const [, name, labelText, value] = sample as unknown as [string, string, string | undefined, string];
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (labelText ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = raw!;
    const family = [...declared].find((base) => name === base || /^_(bucket|sum|count|total|created)$/.test(name.slice(base.length)));
    if (!family) throw new Error(`${name} har ingen # TYPE-rad`);
    samples.push({ name, labels, value: Number(value) });
  }
  return samples;
}

/** The value of the one sample with this name and these labels (0 when there is none yet). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matchar ${found.length} rader`);
  return found[0]?.value ?? 0;
}

async function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await server.request('GET', '/metrics', { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return parseExposition(await response.text());
}

/** This machine's own non-loopback IPv4 address, if it has one: a caller that is not loopback. */
const outsideAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((net) => net && net.family === 'IPv4' && !net.internal)?.address;

describe('GET /metrics', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('counts requests by route pattern, method and status, with their latency, never by raw address', async () => {
    const before = await scrape(server);
    const token = await server.login('admin@saljportalen.se');
    expect((await server.request('GET', '/api/admin/groups/987654', { token })).status).toBe(404);
    expect((await server.request('GET', '/api/admin/groups/987655', { token })).status).toBe(404);
    expect((await server.request('GET', '/api/me/summary')).status).toBe(401);
    expect((await server.request('GET', '/api/finns-inte-12345')).status).toBe(404);

    const response = await server.request('GET', '/metrics');
    const text = await response.text();
    const after = parseExposition(text);
    const delta = (labels: Record<string, string>) =>
      valueOf(after, 'saljportalen_http_requests_total', labels) - valueOf(before, 'saljportalen_http_requests_total', labels);

    expect(delta({ route: '/api/admin/groups/:id', method: 'GET', status: '404' })).toBe(2);
    expect(delta({ route: '/api/me/summary', method: 'GET', status: '401' })).toBe(1);
    expect(delta({ route: '/api/auth/login', method: 'POST', status: '200' })).toBe(1);
    // What no route matched is one label, whatever the address.
    expect(delta({ route: 'other', method: 'GET', status: '404' })).toBe(1);
    expect(text).not.toMatch(/987654|987655|finns-inte/);

    const count = (samples: Sample[]) =>
      valueOf(samples, 'saljportalen_http_request_duration_seconds_count', { route: '/api/admin/groups/:id', method: 'GET' });
    expect(count(after) - count(before)).toBe(2);
    const infBucket = valueOf(after, 'saljportalen_http_request_duration_seconds_bucket', {
      route: '/api/admin/groups/:id',
      method: 'GET',
      le: '+Inf',
    });
    expect(infBucket).toBe(count(after));
    expect(
      valueOf(after, 'saljportalen_http_request_duration_seconds_sum', { route: '/api/admin/groups/:id', method: 'GET' }),
    ).toBeGreaterThan(0);
  });

  it('counts webhook deliveries by topic and outcome, their processing time, the lag from X-Shopify-Triggered-At, and the failed events waiting', async () => {
    const before = await scrape(server);
    const deliveries = (samples: Sample[], topic: string, outcome: string) =>
      valueOf(samples, 'saljportalen_webhook_deliveries_total', { topic, outcome });
    const lagCount = (samples: Sample[], topic: string) => valueOf(samples, 'saljportalen_webhook_lag_seconds_count', { topic });

    // Processed, an hour after Shopify fired it; the same webhook id again is a duplicate.
    const anHourAgo = new Date(Date.now() - 3600_000).toISOString();
    const order = shopifyFixture('orders-create.json');
    const first = await sendShopifyWebhook(server.url, 'orders/create', order, {
      webhookId: 'metrics-order-1',
      headers: { 'x-shopify-triggered-at': anHourAgo },
    });
    expect(first.status).toBe(200);
    expect((await sendShopifyWebhook(server.url, 'orders/create', order, { webhookId: 'metrics-order-1' })).status).toBe(200);
    // A topic the portal does not handle, with a garbled trigger time: counted, no lag measured.
    expect(
      (await sendShopifyWebhook(server.url, 'app/uninstalled', { id: 1 }, { headers: { 'x-shopify-triggered-at': 'igår' } })).status,
    ).toBe(200);
    // A topic nobody knows is one label, `other`.
    expect((await sendShopifyWebhook(server.url, 'shop/påhittat-123', { id: 1 })).status).toBe(200);
    // An order the portal cannot read: stored, failed, waiting for a replay.
    expect((await sendShopifyWebhook(server.url, 'orders/create', { id: 'inte ett id' }, { webhookId: 'metrics-broken-1' })).status).toBe(
      200,
    );
    // A wrong signature: refused, nothing stored.
    expect((await sendShopifyWebhook(server.url, 'orders/create', order, { hmac: 'fel' })).status).toBe(401);

    const after = await scrape(server);
    expect(deliveries(after, 'orders/create', 'processed') - deliveries(before, 'orders/create', 'processed')).toBe(1);
    expect(deliveries(after, 'orders/create', 'duplicate') - deliveries(before, 'orders/create', 'duplicate')).toBe(1);
    expect(deliveries(after, 'orders/create', 'failed') - deliveries(before, 'orders/create', 'failed')).toBe(1);
    expect(deliveries(after, 'orders/create', 'refused') - deliveries(before, 'orders/create', 'refused')).toBe(1);
    expect(deliveries(after, 'app/uninstalled', 'ignored') - deliveries(before, 'app/uninstalled', 'ignored')).toBe(1);
    expect(deliveries(after, 'other', 'ignored') - deliveries(before, 'other', 'ignored')).toBe(1);
    expect(after.some((s) => s.labels.topic?.includes('påhittat'))).toBe(false);

    const processing = (samples: Sample[]) => valueOf(samples, 'saljportalen_webhook_processing_seconds_count', { topic: 'orders/create' });
    expect(processing(after) - processing(before)).toBe(4);

    // One lag measured for orders/create (the processed one), at least the hour it waited.
    expect(lagCount(after, 'orders/create') - lagCount(before, 'orders/create')).toBe(1);
    expect(
      valueOf(after, 'saljportalen_webhook_lag_seconds_sum', { topic: 'orders/create' }) -
        valueOf(before, 'saljportalen_webhook_lag_seconds_sum', { topic: 'orders/create' }),
    ).toBeGreaterThanOrEqual(3600);
    expect(
      valueOf(after, 'saljportalen_webhook_lag_seconds_bucket', { topic: 'orders/create', le: '900' }) -
        valueOf(before, 'saljportalen_webhook_lag_seconds_bucket', { topic: 'orders/create', le: '900' }),
    ).toBe(0);
    expect(lagCount(after, 'app/uninstalled') - lagCount(before, 'app/uninstalled')).toBe(0);

    expect(valueOf(after, 'saljportalen_webhook_events_failed')).toBe(1);
  });

  it('counts mails sent and mails that failed', async () => {
    const sent = (samples: Sample[]) => valueOf(samples, 'saljportalen_mails_total', { outcome: 'sent' });
    const failed = (samples: Sample[]) => valueOf(samples, 'saljportalen_mails_total', { outcome: 'failed' });
    const before = await scrape(server);

    expect((await server.request('POST', '/api/auth/forgot-password', { body: { email: 'elsa@demo.se' } })).status).toBe(200);
    await eventually(async () => sent(await scrape(server)) === sent(before) + 1);

    // The outbox cannot be written (a file stands where its folder should be): the mail fails.
    const outbox = path.join(server.dataDir, 'outbox');
    fs.rmSync(outbox, { recursive: true, force: true });
    fs.writeFileSync(outbox, 'ingen mapp');
    try {
      expect((await server.request('POST', '/api/auth/forgot-password', { body: { email: 'noah@demo.se' } })).status).toBe(200);
      await eventually(async () => failed(await scrape(server)) === failed(before) + 1);
    } finally {
      fs.rmSync(outbox, { force: true });
    }
    expect(sent(await scrape(server))).toBe(sent(before) + 1);
  });

  it("shows the database, its pool on PostgreSQL, and Node's process metrics", async () => {
    const samples = await scrape(server);
    expect(valueOf(samples, 'saljportalen_database_info', { kind: testDbKind })).toBe(1);
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(names, name).toContain(name);
    }
    if (testDbKind === 'postgres') {
      const inUse = valueOf(samples, 'saljportalen_db_pool_connections', { state: 'in_use' });
      const idle = valueOf(samples, 'saljportalen_db_pool_connections', { state: 'idle' });
      // The scrape's own count of failed events ran on one of them.
      expect(inUse + idle).toBeGreaterThanOrEqual(1);
      expect(inUse + idle).toBeLessThanOrEqual(10);
      expect(names).toContain('saljportalen_db_pool_waiting');
    } else {
      expect(names).not.toContain('saljportalen_db_pool_connections');
    }
  });

  it('without METRICS_TOKEN answers a caller on this machine, and refuses one that a proxy speaks for', async () => {
    await scrape(server);
    // What scrapers and a browser on this machine send for themselves.
    const direct = {
      'user-agent': 'Prometheus/2.53.0',
      accept: 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1',
      'accept-encoding': 'gzip',
      'x-prometheus-scrape-timeout-seconds': '10',
      'cache-control': 'no-cache',
      'sec-fetch-mode': 'navigate',
      'sec-ch-ua-platform': '"Linux"',
    };
    expect((await server.request('GET', '/metrics', { headers: direct })).status).toBe(200);
    // Issue 28: every header a proxy adds, not only the three known before, and one no list knows.
    const proxied: Record<string, string> = {
      'x-forwarded-for': '203.0.113.9',
      forwarded: 'for=203.0.113.9',
      'x-real-ip': '203.0.113.9',
      'x-client-ip': '203.0.113.9',
      'true-client-ip': '203.0.113.9',
      'cf-connecting-ip': '203.0.113.9',
      'fastly-client-ip': '203.0.113.9',
      'x-cluster-client-ip': '203.0.113.9',
      'x-original-forwarded-for': '203.0.113.9',
      via: '1.1 proxy.skolan.se',
      'x-forwarded-host': 'portal.skolan.se',
      'x-forwarded-proto': 'https',
      'x-proxy-visitor': '203.0.113.9',
    };
    for (const [header, value] of Object.entries(proxied)) {
      const response = await server.request('GET', '/metrics', { headers: { ...direct, [header]: value } });
      expect(response.status, header).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    }
  });

  it.skipIf(!outsideAddress)('without METRICS_TOKEN refuses a caller from another address', async () => {
    // The same server, reached through this machine's network address instead of loopback.
    const door = http.createServer((request, response) => server.app.server.emit('request', request, response));
    await new Promise<void>((resolve) => door.listen(0, outsideAddress, resolve));
    try {
      const port = (door.address() as AddressInfo).port;
      const response = await fetch(`http://${outsideAddress}:${port}/metrics`);
      expect(response.status).toBe(403);
      expect(await response.text()).not.toContain('saljportalen_');
      // The same door lets other calls through: it is the address that is refused, not the door.
      expect((await fetch(`http://${outsideAddress}:${port}/api/health`)).status).toBe(200);
    } finally {
      await new Promise((resolve) => door.close(resolve));
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let server: TestServer;
  const token = 'mätvärden-hemlig-0123456789';

  beforeAll(async () => {
    server = await startTestServer({ env: { METRICS_TOKEN: token } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the bearer of the token, from anywhere, and nobody else, not even this machine', async () => {
    const samples = await scrape(server, { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' });
    expect(samples.some((s) => s.name === 'saljportalen_http_requests_total')).toBe(true);

    for (const authorization of [undefined, 'Bearer fel-token', `Bearer ${token}x`, `Basic ${token}`, token]) {
      const response = await server.request('GET', '/metrics', authorization ? { headers: { authorization } } : {});
      expect(response.status, String(authorization)).toBe(401);
      const body = await response.text();
      expect(body).not.toContain('saljportalen_');
      expect((JSON.parse(body) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
    }
  });
});
