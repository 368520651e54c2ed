/**
 * Live figures at scale (issue 20 budgets): STREAMS open event streams on one server process, on a
 * database of its own (`groups` groups, 50 unless told, of STREAMS / groups sellers, each seller with one stream).
 *
 * - memory: the server's RSS and V8 heap (its own /metrics) before and after the streams open;
 * - latency: signed webhooks one at a time, each to a random seller; from the webhook's 200 to each
 *   stream of that group receiving the figure event (p50, p99, max over every stream delivery);
 * - throughput: signed webhooks, CONNECTIONS at a time (bench/webhooks.ts), with no stream open and
 *   with every stream open.
 */
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { signShopifyWebhook } from '../apps/server/src/modules/shopify/webhook-signature.js';
import { swedishOrder } from '../apps/server/test/shopify-webhooks.js';
import { startServer } from './server.js';
import { linkCodeOf, measureWebhooks, type WebhookFigures } from './webhooks.js';

export interface StreamFigures {
  streams: number;
  groups: number;
  opened: number;
  rssBefore: number;
  rssAfter: number;
  heapBefore: number;
  heapAfter: number;
  webhooksTimed: number;
  deliveries: number;
  missed: number;
  p50: number;
  p99: number;
  max: number;
  without: WebhookPhase;
  with: WebhookPhase;
}

/** A throughput phase, with what it cost the server and how the bench process itself kept up. */
export interface WebhookPhase extends WebhookFigures {
  /** The server process's CPU (user + system, its own /metrics) per webhook, in ms. */
  serverCpuMs: number;
  /** The server's event-loop delay over the phase (its /metrics, p99), in ms. */
  serverLagP99: number;
  /** The bench process's CPU per webhook (autocannon, and whatever else it runs), in ms. */
  benchCpuMs: number;
  /** The bench process's own event-loop delay over the phase (p99 and max), in ms. */
  benchLagP99: number;
  benchLagMax: number;
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
}

/**
 * measureWebhooks with the server's CPU read from its /metrics before and after (a scrape also
 * resets its event-loop delay histogram, so the second one's p99 is the phase's), and the bench
 * process's own CPU and event-loop delay: whether the load generator, not the server, set the pace.
 */
async function webhookPhase(url: string, options: Parameters<typeof measureWebhooks>[1]): Promise<WebhookPhase> {
  const cpuBefore = await metric(url, 'process_cpu_seconds_total');
  const benchCpu = process.cpuUsage();
  const benchLag = monitorEventLoopDelay({ resolution: 10 });
  benchLag.enable();
  const figures = await measureWebhooks(url, options);
  benchLag.disable();
  const benchUsed = process.cpuUsage(benchCpu);
  const cpuAfter = await metric(url, 'process_cpu_seconds_total');
  const serverLagP99 = await metric(url, 'nodejs_eventloop_lag_p99_seconds');
  return {
    ...figures,
    serverCpuMs: ((cpuAfter - cpuBefore) * 1000) / figures.deliveries,
    serverLagP99: serverLagP99 * 1000,
    benchCpuMs: (benchUsed.user + benchUsed.system) / 1000 / figures.deliveries,
    benchLagP99: benchLag.percentile(99) / 1e6,
    benchLagMax: benchLag.max / 1e6,
  };
}

const describePhase = (phase: WebhookPhase) =>
  `${Math.round(phase.ordersPerSecond)} ordrar/s; servern ${phase.serverCpuMs.toFixed(2)} ms CPU per webhook ` +
  `(event loop p99 ${phase.serverLagP99.toFixed(0)} ms); benchprocessen ${phase.benchCpuMs.toFixed(2)} ms CPU per webhook, ` +
  `event loop p99 ${phase.benchLagP99.toFixed(0)} ms, max ${phase.benchLagMax.toFixed(0)} ms`;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export async function measureStreams(options: {
  adminUrl: string;
  streams: number;
  /** 50 in the budget's measurement; fewer, for a quick check with the same streams per group. */
  groups: number;
  jwtSecret: string;
  webhookSecret: string;
  signToken: (userId: number) => Promise<string>;
  deliveries: number;
  timedWebhooks: number;
  log: (line: string) => void;
  /** Extra flags for the server's Node (BENCH_PROFILE's --cpu-prof). */
  nodeArgs?: string[];
}): Promise<StreamFigures> {
  const { log, groups: GROUPS } = options;
  const perGroup = Math.ceil(options.streams / GROUPS);
  const name = 'saljportalen_bench_streams';
  const admin = new pg.Client({ connectionString: options.adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(options.adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();

  const server = await startServer(
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(os.tmpdir(), 'saljportalen-bench-streams'),
      JWT_SECRET: options.jwtSecret,
      SHOPIFY_WEBHOOK_SECRET: options.webhookSecret,
      PUBLIC_URL: 'http://localhost:3000',
      LOG_LEVEL: 'warn',
      RATE_LIMITS: '0',
      SEED_DEMO: '0',
      SCHEDULED_JOBS: 'off',
      NODE_ENV: 'production',
    },
    options.nodeArgs,
  );
  const agents: http.ClientRequest[] = [];
  try {
    // Sellers 1..streams, member i of group ceil(i / perGroup), with bench/webhooks.ts's link codes.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    await db.query(
      `insert into groups (name, code) select 'Strömgrupp ' || g, 'ST' || lpad(g::text, 4, '0') from generate_series(1, ${GROUPS}) g`,
    );
    await db.query(
      `insert into users (email, password_hash, full_name) select 'strom' || i || '@bench.se', 'x', 'Säljare ' || i from generate_series(1, ${options.streams}) i`,
    );
    const { rows: users } = await db.query<{ id: number; n: number }>(
      `select id, substring(email from 6 for position('@' in email) - 6)::int as n from users`,
    );
    const { rows: groups } = await db.query<{ id: number; code: string }>(`select id, code from groups order by code`);
    const values = users.map((user) => {
      const group = groups[Math.floor((user.n - 1) / perGroup)]!;
      return `(${user.id}, ${group.id}, '${linkCodeOf(user.n)}')`;
    });
    await db.query(`insert into memberships (user_id, group_id, link_code) values ${values.join(',')}`);
    const { rows: members } = await db.query<{ user_id: number; group_id: number; link_code: string }>(
      `select user_id, group_id, link_code from memberships`,
    );
    await db.end();
    log(`  ${options.streams} säljare i ${GROUPS} grupper`);

    // A warm-up first, so that the phase without streams is not also the one that compiles the
    // server's code and fills PostgreSQL's caches; its scrape of /metrics starts the lag readings.
    await measureWebhooks(server.url, {
      deliveries: Math.min(500, options.deliveries),
      members: options.streams,
      secret: options.webhookSecret,
      countStored: async () => NaN,
    });
    await metric(server.url, 'process_cpu_seconds_total');
    const without = await webhookPhase(server.url, {
      deliveries: options.deliveries,
      members: options.streams,
      secret: options.webhookSecret,
      countStored: async () => NaN,
    });
    log(`  webhookar utan strömmar: ${describePhase(without)}`);
    await settle(2000);
    const rssBefore = server.rss();
    const heapBefore = await metric(server.url, 'nodejs_heap_size_used_bytes');

    // One stream per seller: a ticket with a token of theirs, then GET /api/events on a socket of its own.
    const arrivals = new Map<number, { group: number; times: Map<number, number> }>();
    let opened = 0;
    let figureFrames = 0;
    await inBatches(members, 50, async (member) => {
      const token = await options.signToken(member.user_id);
      const ticket = (
        (await (
          await fetch(`${server.url}/api/events/ticket`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
        ).json()) as {
          ticket: string;
        }
      ).ticket;
      const times = new Map<number, number>();
      arrivals.set(member.user_id, { group: member.group_id, times });
      await new Promise<void>((resolve, reject) => {
        const request = http.get(`${server.url}/api/events?ticket=${encodeURIComponent(ticket)}`, { agent: false }, (response) => {
          if (response.statusCode !== 200) return reject(new Error(`ström ${response.statusCode}`));
          opened++;
          let buffer = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            const at = performance.now();
            buffer += chunk;
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              if (!block.includes('event: figures')) continue;
              figureFrames++;
              const version = Number(/"version":(\d+)/.exec(block)?.[1]);
              times.set(version, at);
            }
          });
          resolve();
        });
        request.on('error', reject);
        agents.push(request);
      });
    });
    log(`  ${opened} strömmar öppna`);
    await settle(3000);
    const rssAfter = server.rss();
    const heapAfter = await metric(server.url, 'nodejs_heap_size_used_bytes');
    const openCount = await metric(server.url, 'saljportalen_event_streams_open');
    log(`  /metrics: ${openCount} öppna strömmar; RSS ${(rssBefore / 1e6).toFixed(0)} → ${(rssAfter / 1e6).toFixed(0)} MB`);

    // Latency: one webhook at a time, each to a random seller; the group's streams' figure events.
    const delays: number[] = [];
    let missed = 0;
    const byGroup = new Map<number, { times: Map<number, number> }[]>();
    for (const entry of arrivals.values()) {
      if (!byGroup.has(entry.group)) byGroup.set(entry.group, []);
      byGroup.get(entry.group)!.push(entry);
    }
    for (let i = 0; i < options.timedWebhooks; i++) {
      const member = members[Math.floor(Math.random() * members.length)]!;
      const body = JSON.stringify(
        swedishOrder({
          id: 9_300_000_000_000 + i,
          refCode: member.link_code,
          createdAt: new Date().toISOString(),
          lineItems: [{ id: 1, productId: null, title: 'Bivaxdukar 3-pack', price: '249.00', quantity: 1 }],
        }),
      );
      const seenBefore = new Set<number>();
      const streamsOfGroup = byGroup.get(member.group_id)!;
      for (const entry of streamsOfGroup) for (const version of entry.times.keys()) seenBefore.add(version);
      const response = await fetch(`${server.url}/api/webhooks/shopify`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': 'orders/create',
          'x-shopify-hmac-sha256': signShopifyWebhook(body, options.webhookSecret),
          'x-shopify-webhook-id': `bench-stream-${Date.now()}-${i}`,
        },
        body,
      });
      await response.arrayBuffer();
      const answeredAt = performance.now();
      await settle(1500);
      for (const entry of streamsOfGroup) {
        const fresh = [...entry.times].filter(([version]) => !seenBefore.has(version));
        if (fresh.length === 0) {
          missed++;
          continue;
        }
        delays.push(Math.max(0, Math.min(...fresh.map(([, at]) => at)) - answeredAt));
      }
    }
    delays.sort((a, b) => a - b);
    log(`  fördröjning: p99 ${quantile(delays, 0.99).toFixed(1)} ms över ${delays.length} leveranser, ${missed} missade`);

    const framesBefore = figureFrames;
    const withStreams = await webhookPhase(server.url, {
      deliveries: options.deliveries,
      members: options.streams,
      secret: options.webhookSecret,
      countStored: async () => NaN,
    });
    log(`  webhookar med ${opened} strömmar: ${describePhase(withStreams)}`);
    await settle(2000);
    log(
      `  under tiden: ${figureFrames - framesBefore} figures-händelser till läsarna (${withStreams.deliveries} × ${perGroup} väntade), ` +
        `${await metric(server.url, 'saljportalen_event_streams_open')} strömmar öppna efteråt`,
    );

    return {
      streams: options.streams,
      groups: GROUPS,
      opened,
      rssBefore,
      rssAfter,
      heapBefore,
      heapAfter,
      webhooksTimed: options.timedWebhooks,
      deliveries: delays.length,
      missed,
      p50: quantile(delays, 0.5),
      p99: quantile(delays, 0.99),
      max: delays.at(-1) ?? NaN,
      without,
      with: withStreams,
    };
  } finally {
    for (const request of agents) request.destroy();
    await server.stop();
    const cleanup = new pg.Client({ connectionString: options.adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  }
}
