/**
 * Live figures at scale (issue 20 budgets): STREAMS open event streams on one server process, on a
 * database of its own (`groups` groups, 50 unless told, of STREAMS / groups sellers, each seller
 * with one stream). The streams are read by a process of their own at nice 19
 * (bench/stream-readers.ts), as phones elsewhere would read them: the bench process runs only the
 * load, so what the throughput phases compare is the server's.
 *
 * - memory: the server's RSS and V8 heap (its own /metrics) before and after the streams open;
 * - latency: signed webhooks one at a time, each to a random seller; from the webhook's 200 to each
 *   stream of that group receiving the figure event (p50, p99, max over every stream delivery);
 * - throughput: signed webhooks, CONNECTIONS at a time (bench/webhooks.ts), with no stream open and
 *   with every stream open, after a warm-up; with each, the server's CPU per webhook (what the
 *   streams cost it) and the bench's own CPU and event-loop delay (whether the load kept up).
 */
import { fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { signShopifyWebhook } from '../apps/server/src/modules/shopify/webhook-signature.js';
import { swedishOrder } from '../apps/server/test/shopify-webhooks.js';
import { startServer } from './server.js';
import type { ReaderStream, ReadersAnswer, ReadersRequest } from './stream-readers.js';
import { linkCodeOf, measureWebhooks, type WebhookFigures } from './webhooks.js';

const here = path.dirname(fileURLToPath(import.meta.url));

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
  /** The readers' process over the phase with streams: figure events read, its CPU per webhook (ms). */
  readers: { figureFrames: number; cpuMs: number };
  /** Streams the server still had open after the phase with streams (none cut as a slow reader). */
  openAfter: number;
}

/** A throughput phase, with what it cost the server and how the bench process itself kept up. */
export interface WebhookPhase extends WebhookFigures {
  /** The server process's CPU (user + system, its own /metrics) per webhook, in ms. */
  serverCpuMs: number;
  /** Of which in the kernel (system): socket writes are mostly there. */
  serverSystemMs: number;
  /** The server's event-loop delay over the phase (its /metrics, p99), in ms. */
  serverLagP99: number;
  /** The bench process's CPU per webhook (autocannon, and whatever else it runs), in ms. */
  benchCpuMs: number;
  /** The bench process's own event-loop delay over the phase (p99 and max), in ms. */
  benchLagP99: number;
  benchLagMax: number;
}

/** One scrape of the server's /metrics: a reader of its unlabelled values. */
async function scrape(url: string): Promise<(name: string) => number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
}
const metric = async (url: string, name: string) => (await scrape(url))(name);

/**
 * measureWebhooks with the server's CPU read from its /metrics before and after (a scrape also
 * resets its event-loop delay histogram, so the second one's p99 is the phase's), and the bench
 * process's own CPU and event-loop delay: whether the load generator, not the server, set the pace.
 */
async function webhookPhase(url: string, options: Parameters<typeof measureWebhooks>[1]): Promise<WebhookPhase> {
  const before = await scrape(url);
  const benchCpu = process.cpuUsage();
  const benchLag = monitorEventLoopDelay({ resolution: 10 });
  benchLag.enable();
  const figures = await measureWebhooks(url, options);
  benchLag.disable();
  const benchUsed = process.cpuUsage(benchCpu);
  const after = await scrape(url);
  const perWebhook = (name: string) => ((after(name) - before(name)) * 1000) / figures.deliveries;
  return {
    ...figures,
    serverCpuMs: perWebhook('process_cpu_seconds_total'),
    serverSystemMs: perWebhook('process_cpu_system_seconds_total'),
    serverLagP99: after('nodejs_eventloop_lag_p99_seconds') * 1000,
    benchCpuMs: (benchUsed.user + benchUsed.system) / 1000 / figures.deliveries,
    benchLagP99: benchLag.percentile(99) / 1e6,
    benchLagMax: benchLag.max / 1e6,
  };
}

const describePhase = (phase: WebhookPhase) =>
  `${Math.round(phase.ordersPerSecond)} ordrar/s; servern ${phase.serverCpuMs.toFixed(2)} ms CPU per webhook ` +
  `(system ${phase.serverSystemMs.toFixed(2)} ms, event loop p99 ${phase.serverLagP99.toFixed(0)} ms); benchprocessen ${phase.benchCpuMs.toFixed(2)} ms CPU per webhook, ` +
  `event loop p99 ${phase.benchLagP99.toFixed(0)} ms, max ${phase.benchLagMax.toFixed(0)} ms`;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Milliseconds on CLOCK_MONOTONIC, the clock bench/stream-readers.ts notes arrivals on. */
const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

type Request = ReadersRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** bench/stream-readers.ts in a process of its own, at the lowest priority, and the questions it answers. */
function startReaders() {
  const child = fork(path.join(here, 'stream-readers.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  os.setPriority(child.pid!, 19);
  const waiting = new Map<number, { resolve: (answer: ReadersAnswer) => void; reject: (error: Error) => void }>();
  let lastId = 0;
  child.on('message', (answer: ReadersAnswer) => {
    const waiter = waiting.get(answer.id);
    waiting.delete(answer.id);
    if ('error' in answer) waiter?.reject(new Error(`läsarna: ${answer.error}`));
    else waiter?.resolve(answer);
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      for (const waiter of waiting.values()) waiter.reject(new Error(`läsarna avslutades (kod ${code})`));
      waiting.clear();
      resolve();
    }),
  );
  const ask = <A extends ReadersAnswer>(request: Request) =>
    new Promise<A>((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, { resolve: resolve as (answer: ReadersAnswer) => void, reject });
      child.send({ ...request, id });
    });
  return {
    open: async (url: string, streams: ReaderStream[]) =>
      (await ask<{ id: number; opened: number }>({ type: 'open', url, streams })).opened,
    mark: async (groupId: number) => void (await ask({ type: 'mark', groupId })),
    collect: async (groupId: number) => (await ask<{ id: number; times: (number | null)[] }>({ type: 'collect', groupId })).times,
    usage: () => ask<{ id: number; figureFrames: number; cpuMs: number; lagP99: number; lagMax: number }>({ type: 'usage' }),
    /** Ends the readers and their sockets (they end when the channel closes). */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.disconnect();
      await exited;
      clearTimeout(timer);
    },
  };
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
  let readers: ReturnType<typeof startReaders> | undefined;
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

    // One stream per seller, opened and read by the readers' process.
    readers = startReaders();
    const opened = await readers.open(
      server.url,
      await Promise.all(
        members.map(async (member) => ({
          userId: member.user_id,
          groupId: member.group_id,
          token: await options.signToken(member.user_id),
        })),
      ),
    );
    log(`  ${opened} strömmar öppna`);
    await settle(3000);
    const rssAfter = server.rss();
    const heapAfter = await metric(server.url, 'nodejs_heap_size_used_bytes');
    const openCount = await metric(server.url, 'saljportalen_event_streams_open');
    log(`  /metrics: ${openCount} öppna strömmar; RSS ${(rssBefore / 1e6).toFixed(0)} → ${(rssAfter / 1e6).toFixed(0)} MB`);

    // Latency: one webhook at a time, each to a random seller; the group's streams' figure events.
    const delays: number[] = [];
    let missed = 0;
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
      await readers.mark(member.group_id);
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
      const answeredAt = monotonicMs();
      await settle(1500);
      for (const at of await readers.collect(member.group_id)) {
        if (at === null) missed++;
        else delays.push(Math.max(0, at - answeredAt));
      }
    }
    delays.sort((a, b) => a - b);
    log(`  fördröjning: p99 ${quantile(delays, 0.99).toFixed(1)} ms över ${delays.length} leveranser, ${missed} missade`);

    await readers.usage();
    const withStreams = await webhookPhase(server.url, {
      deliveries: options.deliveries,
      members: options.streams,
      secret: options.webhookSecret,
      countStored: async () => NaN,
    });
    log(`  webhookar med ${opened} strömmar: ${describePhase(withStreams)}`);
    // What the readers had yet to read arrives; then a stream cut as a slow reader would show.
    await settle(2000);
    const read = await readers.usage();
    const openAfter = await metric(server.url, 'saljportalen_event_streams_open');
    log(
      `  läsarprocessen (nice 19) under tiden: ${read.figureFrames} figures-händelser, ` +
        `${(read.cpuMs / withStreams.deliveries).toFixed(2)} ms CPU per webhook, event loop p99 ${read.lagP99.toFixed(0)} ms, ` +
        `max ${read.lagMax.toFixed(0)} ms; ${openAfter} strömmar öppna efteråt`,
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
      readers: { figureFrames: read.figureFrames, cpuMs: read.cpuMs / withStreams.deliveries },
      openAfter,
    };
  } finally {
    await readers?.stop();
    await server.stop();
    const cleanup = new pg.Client({ connectionString: options.adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  }
}
