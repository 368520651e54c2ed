/**
 * `npm run bench`: issue 7's figures in one run, each beside its budget, printed and written to
 * bench/RESULTS.md. Generates the national-scale data set (and a tenth of it) when missing, then
 * measures the server as it runs in production, in a process of its own.
 *
 *   npm run bench -- [--db=postgres|embedded] [--only=load,tenth,csv,pdf,webhooks,web,lighthouse,buyer-page,cluster,streams,restart,backup]
 *                    [--seconds=10] [--warmup=3] [--regenerate] [--cluster-scale=1|0.1]
 *
 * --db=postgres (default) uses DATABASE_URL, or postgres://postgres@127.0.0.1:5432/saljportalen_bench
 * and a `…_tenth` beside it; --db=embedded uses PGlite data dirs under bench/.data. RESULTS.md is
 * written only by a whole run (no --only). `cluster` measures the seller calls against the real
 * server (main.ts) with WEB_CONCURRENCY=1 and =2 (decision 026), on PostgreSQL only, on the full
 * data set or, with --cluster-scale=0.1, on the tenth. BENCH_PROFILE=dir writes the server's CPU profiles
 * there (node --cpu-prof), to see where a figure's time goes. `streams` opens 5,000 live-figure
 * streams on one server process over a database of its own on the PostgreSQL of --db=postgres,
 * read by a process of their own at nice 19 (bench/streams.ts, bench/stream-readers.ts; --streams=N
 * for another number, --stream-groups=N for other than 50 groups, e.g. --streams=1000
 * --stream-groups=10 for a quick check with the budget's 100 streams per group). `restart` runs
 * `npm start` on an embedded demo data dir, first start and three restarts; `backup` the longest
 * wait of a request while `npm run backup` copies a running embedded portal (both bench/restart.ts).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createAccessTokens } from '../apps/server/src/lib/access-token.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { TOKEN_STORAGE_KEY } from '../apps/web/src/lib/session.js';
import { DEFAULT_DATABASE_URL, databaseEnv, describe, prepareDatabase, type BenchDatabase } from './bench-database.js';
import { measureCsvExport } from './export-csv.js';
import { BIG_GROUP_ID, type DataShape } from './generate-data.js';
import { measureLighthouse, type LighthouseFigures } from './lighthouse.js';
import { CONNECTIONS, measureFirstCalls, measureLoad, type LoadFigures, type LoadTarget } from './load.js';
import { measurePdf } from './pdfs.js';
import { formatTable, printTable, writeResults, type Row } from './results.js';
import { freePort, startMainServer, startServer, type BenchServer } from './server.js';
import { buildWeb, measureWebSizes, type WebSizes } from './web-size.js';
import { WEBHOOK_ORDER_IDS, measureWebhooks, type WebhookFigures } from './webhooks.js';
import { measureStreams, type StreamFigures } from './streams.js';
import { measureReadModelMemory, type ReadModelMemory } from './read-model-memory.js';
import { measureOnlineBackup, measureRestart, type OnlineBackupFigures, type RestartFigures } from './restart.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const PARTS = [
  'load',
  'tenth',
  'memory',
  'csv',
  'pdf',
  'webhooks',
  'web',
  'lighthouse',
  'buyer-page',
  'cluster',
  'streams',
  'restart',
  'backup',
] as const;
/** The server workers the `cluster` part compares (WEB_CONCURRENCY). */
const CLUSTER_WORKERS = [1, 2] as const;
type Part = (typeof PARTS)[number];

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key!, value] as const;
  }),
);
const only = args.get('only')?.split(',') as Part[] | undefined;
const unknown = only?.filter((part) => !PARTS.includes(part));
if (unknown?.length) throw new Error(`okänd del: ${unknown.join(', ')} (finns: ${PARTS.join(', ')})`);
const runs = (part: Part) => !only || only.includes(part);
const dbKind = args.get('db') === 'embedded' ? 'pglite' : 'postgres';
const loadSeconds = Number(args.get('seconds') ?? 10);
const warmupSeconds = Number(args.get('warmup') ?? 3);
const regenerate = args.has('regenerate');
const clusterScale = Number(args.get('cluster-scale') ?? 1);
if (clusterScale !== 1 && clusterScale !== 0.1) throw new Error('--cluster-scale är 1 eller 0.1');
// One Node process owns an embedded database: WEB_CONCURRENCY>1 needs PostgreSQL.
const runsCluster = runs('cluster') && dbKind === 'postgres';
const log = (line: string) => console.log(line);

const started = performance.now();
const loadBefore = os.loadavg();
const jwtSecret = crypto.randomBytes(32).toString('base64url');
const webhookSecret = crypto.randomBytes(24).toString('base64url');
const accessTokens = createAccessTokens(jwtSecret);
const rows: Row[] = [];

const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));
const perSecond = (value: number) => Math.round(value).toLocaleString('en-US');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

// ---------------------------------------------------------------- callers

/** Members of the generated data set by the size of their group (see generate-data.ts). */
function membersOf(shape: DataShape) {
  const others = shape.sellers - shape.bigGroupSellers;
  const groupsOfThirty = others % (shape.groups - 1);
  const thirty: number[] = [];
  for (let i = shape.bigGroupSellers + 1; i <= shape.sellers; i++)
    if ((i - shape.bigGroupSellers - 1) % (shape.groups - 1) < groupsOfThirty) thirty.push(i);
  return {
    big: Array.from({ length: shape.bigGroupSellers }, (_, i) => i + 1),
    thirty,
    thirtyGroups: Array.from({ length: groupsOfThirty }, (_, i) => i + 2),
    superadmin: shape.sellers + 1,
  };
}

/** Tokens signed the way sign-in signs them, renewed well before their 15 minutes run out. */
function tokenPool() {
  const signed = new Map<string, { at: number; tokens: string[] }>();
  return async (name: string, userIds: number[]) => {
    const cached = signed.get(name);
    if (cached && Date.now() - cached.at < 8 * 60_000) return cached.tokens;
    const tokens = await Promise.all(userIds.map((userId) => accessTokens.sign({ userId, tokenVersion: 0 })));
    signed.set(name, { at: Date.now(), tokens });
    return tokens;
  };
}

// ---------------------------------------------------------------- load

/** Lighthouse's documented way with its run-to-run spread: five runs, the median by score. */
const LIGHTHOUSE_RUNS = 5;

const SELLER_CALLS = [
  ['/api/me/summary', 'summary'],
  ['/api/group/totals', 'totals'],
  ['/api/group/leaderboard-mine', 'leaderboard'],
] as const;

async function sellerLoad(server: BenchServer, shape: DataShape, tokens: ReturnType<typeof tokenPool>) {
  const members = membersOf(shape);
  const figures = new Map<string, LoadFigures>();
  for (const [group, ids] of [
    ['30', members.thirty],
    ['500', members.big],
  ] as const) {
    const groupTokens = await tokens(`${shape.scale}-${group}`, ids);
    for (const [callPath, name] of SELLER_CALLS) {
      const key = `${name} ${group}`;
      figures.set(key, await measureLoad(server.url, { paths: [callPath], tokens: groupTokens }, { seconds: loadSeconds, warmupSeconds }));
      log(`  ${callPath} (${group}-säljargrupp): ${describeLoad(figures.get(key)!)}`);
    }
  }
  return figures;
}

const describeLoad = (figures: LoadFigures) =>
  `${perSecond(figures.requestsPerSecond)} req/s, p50 ${ms(figures.p50)} ms, p99 ${ms(figures.p99)} ms` +
  (figures.failures ? `, ${figures.failures} failed` : '');

// ---------------------------------------------------------------- the run

async function countWebhookOrders(database: BenchDatabase, from: number, to: number): Promise<{ orders: number; lines: number }> {
  const query = `select count(distinct o.id)::int as orders, count(l.id)::int as lines
                 from orders o left join order_lines l on l.order_id = o.id where o.shopify_order_id between ${from} and ${to}`;
  if (database.kind === 'postgres') {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(query)).rows[0];
    } finally {
      await client.end();
    }
  }
  const opened = await openDatabase({ dataDir: database.dataDir });
  try {
    return ((await opened.db.execute(query as never)) as unknown as { rows: { orders: number; lines: number }[] }).rows[0]!;
  } finally {
    await opened.close();
  }
}

/** The bench's webhook orders and events go again, so the data set stays the one generated. */
async function removeWebhookOrders(database: BenchDatabase) {
  const statements = [
    `delete from orders where shopify_order_id between ${WEBHOOK_ORDER_IDS.from} and ${WEBHOOK_ORDER_IDS.to}`,
    `delete from webhook_events where webhook_id like 'bench-%'`,
    // The rollups too: each order updated its group's and its member's row.
    `vacuum analyze orders, order_lines, webhook_events, group_figures, membership_figures`,
  ];
  if (database.kind === 'postgres') {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
    return;
  }
  const opened = await openDatabase({ dataDir: database.dataDir });
  try {
    for (const statement of statements) await opened.db.execute(statement as never);
  } finally {
    await opened.close();
  }
}

async function postgresVersion(database: BenchDatabase): Promise<string> {
  if (database.kind !== 'postgres') return 'PGlite (embedded)';
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows: settings } = await client.query(
      `select (select setting from pg_settings where name = 'server_version') as version,
              (select setting from pg_settings where name = 'shared_buffers') as shared_buffers,
              (select unit from pg_settings where name = 'shared_buffers') as unit`,
    );
    const row = settings[0] as { version: string; shared_buffers: string; unit: string };
    return `PostgreSQL ${row.version} on 127.0.0.1 (shared_buffers ${row.shared_buffers} × ${row.unit})`;
  } finally {
    await client.end();
  }
}

const serverEnv = (database: BenchDatabase, webDist: string): Record<string, string> => ({
  ...databaseEnv(database),
  DATA_DIR: database.kind === 'pglite' ? database.dataDir : path.join(os.tmpdir(), 'saljportalen-bench-data'),
  JWT_SECRET: jwtSecret,
  SHOPIFY_WEBHOOK_SECRET: webhookSecret,
  PUBLIC_URL: 'http://localhost:3000',
  LOG_LEVEL: 'warn',
  RATE_LIMITS: '0',
  WEB_DIST: webDist,
  NODE_ENV: 'production',
});

const dbTarget =
  dbKind === 'postgres'
    ? ({ kind: 'postgres', url: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL } as const)
    : ({ kind: 'pglite', dataDir: path.join(here, '.data') } as const);

const fullNeeded =
  PARTS.filter((part) => !['tenth', 'web', 'buyer-page', 'cluster', 'streams', 'restart', 'backup'].includes(part)).some(runs) ||
  (runsCluster && clusterScale === 1);
const full = fullNeeded ? await prepareDatabase(dbTarget, 1, { regenerate, log }) : undefined;
const tenth =
  runs('tenth') || runs('buyer-page') || (runsCluster && clusterScale === 0.1)
    ? await prepareDatabase(dbTarget, 0.1, { regenerate, log })
    : undefined;
const tokens = tokenPool();
const profileArgs = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`] : [];

let web: WebSizes | undefined;
const webDist = path.join(os.tmpdir(), 'saljportalen-bench-web');
if (runs('web') || runs('lighthouse')) {
  log('Bygger webben');
  buildWeb(path.join(root, 'apps', 'web'), webDist);
  web = measureWebSizes(webDist);
}

let fullLoad: Map<string, LoadFigures> | undefined;
/** /api/me/summary, each caller of the 30-seller groups once with a token the server has not seen. */
let firstCalls: { callers: number; figures: LoadFigures } | undefined;
/** Seller calls by WEB_CONCURRENCY. */
const clusterLoad = new Map<number, Map<string, LoadFigures>>();
let tenthLoad: Map<string, LoadFigures> | undefined;
let bare: LoadFigures | undefined;
const adminLoad = new Map<string, LoadFigures>();
let csv: Awaited<ReturnType<typeof measureCsvExport>> | undefined;
let catalogPdf: Awaited<ReturnType<typeof measurePdf>> | undefined;
let payoutPdf: Awaited<ReturnType<typeof measurePdf>> | undefined;
let webhooks: WebhookFigures | undefined;
let webhookLines = 0;
let readModelMemory: ReadModelMemory | undefined;
const lighthouse = new Map<string, LighthouseFigures>();
/** The page before the shop (issue 32): its one document's weight, and Lighthouse on every category. */
let buyerPage: { bytes: number; gzip: number; lighthouse: LighthouseFigures } | undefined;

if (full && runs('memory') && full.kind === 'postgres') {
  readModelMemory = measureReadModelMemory(full.url);
  log(`  läsmodellen: RSS ${(readModelMemory.rssWithout / 1e6).toFixed(0)} → ${(readModelMemory.rssWith / 1e6).toFixed(0)} MB`);
}

if (full) {
  log(`Server på ${describe(full.shape)}`);
  const server = await startServer(serverEnv(full, webDist), profileArgs);
  const members = membersOf(full.shape);
  const admin = () => tokens('superadmin', [members.superadmin]);
  try {
    if (runs('load')) {
      bare = await measureLoad(server.url, { paths: ['/bench/bare'] }, { seconds: loadSeconds, warmupSeconds });
      log(`  bar route: ${describeLoad(bare)}`);
      fullLoad = await sellerLoad(server, full.shape, tokens);
      const callers = membersOf(full.shape).thirty;
      // A session id of its own: tokens of the same second would otherwise be the very same text.
      const newTokens = await Promise.all(
        callers.map((userId) => accessTokens.sign({ userId, tokenVersion: 0, sessionId: crypto.randomUUID() })),
      );
      firstCalls = {
        callers: callers.length,
        figures: await measureFirstCalls(server.url, { paths: ['/api/me/summary'], tokens: newTokens }),
      };
      log(`  /api/me/summary, första anropet: ${describeLoad(firstCalls.figures)}`);
      const randomGroups = Array.from({ length: 500 }, () => 2 + Math.floor(Math.random() * (full.shape.groups - 1)));
      const adminCalls: [string, LoadTarget][] = [
        ['/api/admin/overview', { paths: ['/api/admin/overview'] }],
        ['/api/admin/groups', { paths: ['/api/admin/groups'] }],
        ['/api/admin/sellers?sort=total_sales', { paths: ['/api/admin/sellers?sort=total_sales'] }],
        ['/api/admin/sellers?sort=total_commission', { paths: ['/api/admin/sellers?sort=total_commission'] }],
        ['/api/admin/sellers?sort=orders_count', { paths: ['/api/admin/sellers?sort=orders_count'] }],
        ['/api/admin/group/{id} (29–30 sellers)', { paths: randomGroups.map((id) => `/api/admin/group/${id}`) }],
        [`/api/admin/group/{id} (500 sellers, first page of 50)`, { paths: [`/api/admin/group/${BIG_GROUP_ID}`] }],
      ];
      for (const [name, target] of adminCalls) {
        const figures = await measureLoad(server.url, { ...target, tokens: await admin() }, { seconds: loadSeconds, warmupSeconds });
        adminLoad.set(name, figures);
        log(`  ${name}: ${describeLoad(figures)}`);
      }
    }
    if (runs('csv')) {
      csv = await measureCsvExport(server.url, { groupId: BIG_GROUP_ID, token: (await admin())[0]!, rss: () => server.rss(), runs: 3 });
      log(`  CSV: ${csv.lines} rader, ${csv.seconds.toFixed(2)} s, minne +${csv.memoryGrowthMb.toFixed(0)} MB`);
    }
    if (runs('pdf')) {
      catalogPdf = await measurePdf(server.url, {
        paths: ['/api/catalog/me.pdf'],
        tokens: (await tokens(`1-30`, members.thirty)).slice(0, 200),
        runs: 40,
      });
      log(`  katalog-PDF: p50 ${ms(catalogPdf.p50)} ms`);
      payoutPdf = await measurePdf(server.url, {
        paths: members.thirtyGroups.slice(0, 20).map((groupId) => `/api/admin/payouts/${groupId}/export.pdf`),
        tokens: await admin(),
        runs: 40,
      });
      log(`  avräknings-PDF: p50 ${ms(payoutPdf.p50)} ms`);
    }
    if (runs('lighthouse')) {
      const seller = (await tokens('1-30', members.thirty))[0]!;
      lighthouse.set('/login', await measureLighthouse(`${server.url}/login`, { runs: LIGHTHOUSE_RUNS }));
      lighthouse.set(
        '/dashboard',
        await measureLighthouse(`${server.url}/dashboard`, { runs: LIGHTHOUSE_RUNS, localStorage: { [TOKEN_STORAGE_KEY]: seller } }),
      );
      for (const [page, figures] of lighthouse)
        log(`  Lighthouse ${page}: prestanda ${figures.performance}, tillgänglighet ${figures.accessibility}`);
    }
    if (runs('webhooks')) {
      let counted: { orders: number; lines: number } | undefined;
      webhooks = await measureWebhooks(server.url, {
        deliveries: Number(args.get('webhooks') ?? 9_000),
        members: full.shape.sellers,
        secret: webhookSecret,
        countStored: async (from, to) => {
          if (full.kind === 'pglite') return NaN;
          counted = await countWebhookOrders(full, from, to);
          return counted.orders;
        },
      });
      webhookLines = counted?.lines ?? 0;
    }
  } finally {
    await server.stop();
  }
  if (webhooks && full.kind === 'pglite') {
    const counted = await countWebhookOrders(full, WEBHOOK_ORDER_IDS.from, WEBHOOK_ORDER_IDS.to);
    webhooks.stored = counted.orders;
    webhookLines = counted.lines;
  }
  if (webhooks) {
    log(`  webhooks: ${perSecond(webhooks.ordersPerSecond)} ordrar/s, ${webhooks.stored}/${webhooks.deliveries} sparade`);
    await removeWebhookOrders(full);
  }
}

if (tenth && (runs('tenth') || runs('buyer-page'))) {
  log(`Server på ${describe(tenth.shape)}`);
  const server = await startServer(serverEnv(tenth, webDist), profileArgs);
  try {
    if (runs('tenth')) tenthLoad = await sellerLoad(server, tenth.shape, tokens);
    if (runs('buyer-page')) {
      // Member 2 of the generated data: a pupil of the big group (generate-data.ts writes its link code so).
      const url = `${server.url}/s/BL${(2 * 7919 + 100000).toString(16).toUpperCase()}`;
      const html = await (await fetch(url)).text();
      if (!html.includes('Till butiken')) throw new Error(`${url} är ingen öppen köparsida`);
      buyerPage = {
        bytes: Buffer.byteLength(html),
        gzip: gzipSync(html).length,
        lighthouse: await measureLighthouse(url, { runs: LIGHTHOUSE_RUNS, allCategories: true }),
      };
      const { performance: p, accessibility: a, bestPractices: b, seo } = buyerPage.lighthouse;
      log(`  köparsidan: ${kb(buyerPage.gzip)} gzip; Lighthouse ${p}/${a}/${b}/${seo}`);
    }
  } finally {
    await server.stop();
  }
}

const clusterData = clusterScale === 1 ? full : tenth;
if (runsCluster && clusterData) {
  for (const workers of CLUSTER_WORKERS) {
    log(`Server (main.ts) med WEB_CONCURRENCY=${workers} på ${describe(clusterData.shape)}`);
    const server = await startMainServer({ ...serverEnv(clusterData, webDist), WEB_CONCURRENCY: String(workers) }, await freePort());
    try {
      clusterLoad.set(workers, await sellerLoad(server, clusterData.shape, tokens));
    } finally {
      await server.stop();
    }
  }
}

let streams: StreamFigures | undefined;
if (runs('streams') && dbKind === 'postgres') {
  const adminUrl = new URL(dbTarget.kind === 'postgres' ? dbTarget.url : DEFAULT_DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const count = Number(args.get('streams') ?? 5_000);
  log(`Server med ${count} öppna händelseströmmar`);
  streams = await measureStreams({
    adminUrl: adminUrl.toString(),
    streams: count,
    groups: Number(args.get('stream-groups') ?? 50),
    jwtSecret,
    webhookSecret,
    signToken: (userId) => accessTokens.sign({ userId, tokenVersion: 0 }),
    deliveries: Number(args.get('webhooks') ?? 3_000),
    timedWebhooks: Number(args.get('timed') ?? 40),
    log,
    nodeArgs: profileArgs,
  });
}

let restart: RestartFigures | undefined;
if (runs('restart')) {
  log('npm start på en inbäddad databas med demodata: första start och tre omstarter');
  restart = await measureRestart(root);
}
let onlineBackup: OnlineBackupFigures | undefined;
if (runs('backup')) {
  log('npm run backup medan en inbäddad portal med demodata svarar på förfrågningar');
  onlineBackup = await measureOnlineBackup(root);
}

// ---------------------------------------------------------------- the table

if (bare) rows.push({ section: 'baseline', what: 'GET /bench/bare (no auth, no database)', figure: describeLoad(bare), budget: '–' });
for (const [key, figures] of fullLoad ?? []) {
  const [name, group] = key.split(' ');
  const call = SELLER_CALLS.find(([, callName]) => callName === name)![0];
  rows.push({
    section: 'seller',
    what: `${call}, ${group === '30' ? '30-seller groups' : 'the 500-seller group'}`,
    figure:
      describeLoad(figures) +
      (bare
        ? `; ${((100 * figures.requestsPerSecond) / bare.requestsPerSecond).toFixed(0)} % of the bare route's req/s, p99 ×${(figures.p99 / bare.p99).toFixed(1)}`
        : ''),
    budget: "≥ 60 % of the bare route's req/s, p99 ≤ 2× its p99 (issue 23)",
    met: bare
      ? figures.requestsPerSecond >= 0.6 * bare.requestsPerSecond && figures.p99 <= 2 * bare.p99 && figures.failures === 0
      : undefined,
  });
}
if (firstCalls) {
  rows.push({
    section: 'seller',
    what: `/api/me/summary, first call of each of ${perSecond(firstCalls.callers)} callers (its token checked in full, then kept)`,
    figure:
      describeLoad(firstCalls.figures) +
      (bare ? `; ${((100 * firstCalls.figures.requestsPerSecond) / bare.requestsPerSecond).toFixed(0)} % of the bare route's req/s` : ''),
    budget: '– (reported)',
  });
}
for (const [key, figures] of tenthLoad ?? []) {
  const [name, group] = key.split(' ');
  const call = SELLER_CALLS.find(([, callName]) => callName === name)![0];
  const whole = fullLoad?.get(key);
  const p99Ratio = whole ? whole.p99 / Math.max(figures.p99, 1) : NaN;
  const rpsRatio = whole ? figures.requestsPerSecond / whole.requestsPerSecond : NaN;
  rows.push({
    section: 'seller, 1/10 data',
    what: `${call}, ${group === '30' ? '30-seller groups' : 'the 500-seller group'}`,
    figure: `${describeLoad(figures)}` + (whole ? `; full data: p99 ×${p99Ratio.toFixed(2)}, req/s ÷${rpsRatio.toFixed(2)}` : ''),
    budget: 'full data within 1.5×',
    met: whole ? p99Ratio <= 1.5 && rpsRatio <= 1.5 && figures.failures === 0 : undefined,
  });
}
for (const [name, figures] of adminLoad) {
  rows.push({
    section: 'admin',
    what: name,
    figure: describeLoad(figures),
    budget: 'p99 ≤ 100 ms',
    met: figures.p99 <= 100 && figures.failures === 0,
  });
}
const [oneWorker, twoWorkers] = CLUSTER_WORKERS.map((workers) => clusterLoad.get(workers));
for (const [key, figures] of twoWorkers ?? []) {
  const [name, group] = key.split(' ');
  const call = SELLER_CALLS.find(([, callName]) => callName === name)![0];
  const one = oneWorker?.get(key);
  rows.push({
    section: `seller, WEB_CONCURRENCY${clusterScale === 1 ? '' : ', 1/10 data'}`,
    what: `${call}, ${group === '30' ? '30-seller groups' : 'the 500-seller group'}`,
    figure:
      `2 workers: ${describeLoad(figures)}` +
      (one ? `; 1 worker: ${describeLoad(one)}; req/s ×${(figures.requestsPerSecond / one.requestsPerSecond).toFixed(2)}` : ''),
    budget: '– (reported)',
  });
}
if (restart) {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  const describeStart = (start: { wallMs: number; cpuMs: number; peakRssBytes: number }) =>
    `${(start.wallMs / 1000).toFixed(1)} s to /api/ready, ${(start.cpuMs / 1000).toFixed(1)} CPU-s, peak ${mb(start.peakRssBytes)}`;
  rows.push({
    section: 'start',
    what: 'first start (migrates, seeds the demo data)',
    figure: describeStart(restart.first),
    budget: '– (reported)',
  });
  const slowest = Math.max(...restart.restarts.map((start) => start.wallMs));
  rows.push({
    section: 'start',
    what: `restart, embedded demo data, nothing to build (${restart.restarts.length} runs)`,
    figure: restart.restarts.map(describeStart).join('; '),
    budget: 'wall time ≤ 3 s (issue 34)',
    met: slowest <= 3000,
  });
  rows.push({
    section: 'start',
    what: 'npm start with a wrong setting (PORT=abc): told, exit 1',
    figure: `${(restart.configErrorMs / 1000).toFixed(2)} s, npm's own start included`,
    budget: '– (reported; the check runs before the server is loaded)',
  });
}
if (onlineBackup) {
  rows.push({
    section: 'backup',
    what: `npm run backup of a running embedded portal (${(onlineBackup.dataDirBytes / 1e6).toFixed(0)} MB pgdata), requests all along`,
    figure: `longest wait ${ms(onlineBackup.longestWaitMs)} ms over ${onlineBackup.requests} requests; the backup took ${(onlineBackup.backupMs / 1000).toFixed(1)} s`,
    budget: 'no request waits over 1 s (issue 34)',
    met: onlineBackup.longestWaitMs <= 1000,
  });
}
if (webhooks) {
  rows.push({
    section: 'webhooks',
    what: `signed orders/create, ${CONNECTIONS} at a time`,
    figure:
      `${perSecond(webhooks.ordersPerSecond)} orders/s over ${webhooks.deliveries.toLocaleString('en-US')} deliveries (p99 ${ms(webhooks.p99)} ms); ` +
      `${webhooks.stored.toLocaleString('en-US')} orders with ${webhookLines.toLocaleString('en-US')} lines stored, ${webhooks.failures} failed`,
    budget: '≥ 500 orders/s, none lost (issue 23)',
    met:
      webhooks.ordersPerSecond >= 500 &&
      webhooks.stored === webhooks.deliveries &&
      webhooks.failures === 0 &&
      webhookLines === 2 * webhooks.deliveries,
  });
}
if (streams) {
  const perStream = (after: number, before: number) => (after - before) / Math.max(streams!.opened, 1);
  const ratio = streams.with.ordersPerSecond / streams.without.ordersPerSecond;
  rows.push(
    {
      section: 'live streams',
      what: `${streams.opened.toLocaleString('en-US')} open streams on one process (${streams.groups} groups): webhook's 200 → each stream of its group`,
      figure:
        `p50 ${ms(streams.p50)} ms, p99 ${ms(streams.p99)} ms, max ${ms(streams.max)} ms over ${streams.deliveries.toLocaleString('en-US')} ` +
        `deliveries of ${streams.webhooksTimed} webhooks, ${streams.missed} missed`,
      budget: 'p99 ≤ 1 s',
      met: streams.p99 <= 1000 && streams.missed === 0 && streams.opened === streams.streams,
    },
    {
      section: 'live streams',
      what: 'memory per open stream',
      figure:
        `RSS ${kb(perStream(streams.rssAfter, streams.rssBefore))} (${(streams.rssBefore / 1e6).toFixed(0)} → ${(streams.rssAfter / 1e6).toFixed(0)} MB), ` +
        `heap ${kb(perStream(streams.heapAfter, streams.heapBefore))} (${(streams.heapBefore / 1e6).toFixed(0)} → ${(streams.heapAfter / 1e6).toFixed(0)} MB)`,
      budget: 'goal ≤ 20 KB (reported)',
      met: perStream(streams.rssAfter, streams.rssBefore) <= 20 * 1024,
    },
    {
      section: 'live streams',
      what: `webhook throughput, ${CONNECTIONS} at a time: ${streams.opened.toLocaleString('en-US')} streams open against none`,
      figure: `${perSecond(streams.with.ordersPerSecond)} against ${perSecond(streams.without.ordersPerSecond)} orders/s (×${ratio.toFixed(2)}); ${streams.with.failures + streams.without.failures} failed`,
      budget: 'within 10 %',
      met: ratio >= 0.9 && streams.with.failures + streams.without.failures === 0 && streams.openAfter === streams.opened,
    },
    {
      section: 'live streams',
      what: `the server's CPU per webhook (user + system, its /metrics) in those two phases`,
      figure:
        `${ms(streams.with.serverCpuMs)} ms with ${streams.opened.toLocaleString('en-US')} streams open against ${ms(streams.without.serverCpuMs)} ms ` +
        `(${streams.with.serverCpuMs >= streams.without.serverCpuMs ? '+' : '−'}${ms(Math.abs(streams.with.serverCpuMs - streams.without.serverCpuMs))} ms for ${streams.readers.figureFrames.toLocaleString('en-US')} figure events written); ` +
        `the readers, a process of their own at nice 19: ${ms(streams.readers.cpuMs)} ms per webhook; ${streams.openAfter.toLocaleString('en-US')} streams open after`,
      budget: '– (reported)',
    },
  );
}
if (readModelMemory) {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  const m = readModelMemory;
  rows.push({
    section: 'read model',
    what: `everything the seller calls read (${m.users.toLocaleString('en-US')} users, ${m.memberships.toLocaleString('en-US')} memberships, ${m.groups.toLocaleString('en-US')} groups), in a process of its own`,
    figure: `RSS ${mb(m.rssWithout)} without it, ${mb(m.rssWith)} with it (+${mb(m.rssWith - m.rssWithout)}); V8 heap +${mb(m.heapWith - m.heapWithout)}; read in ${(m.loadMs / 1000).toFixed(1)} s`,
    budget: '– (reported)',
  });
}
if (csv) {
  rows.push({
    section: 'CSV export',
    what: `the 500-seller group (median of 3)`,
    figure: `${csv.lines.toLocaleString('en-US')} lines (${csv.megabytes.toFixed(1)} MB) in ${csv.seconds.toFixed(2)} s; server memory +${csv.memoryGrowthMb.toFixed(0)} MB at peak`,
    budget: '100,000 lines ≤ 3 s, memory ≤ +100 MB',
    met: csv.lines >= 100_000 && csv.seconds <= 3 && csv.memoryGrowthMb <= 100,
  });
}
if (catalogPdf) {
  rows.push({
    section: 'PDF',
    what: 'catalogue (GET /api/catalog/me.pdf)',
    figure: `p50 ${ms(catalogPdf.p50)} ms, p95 ${ms(catalogPdf.p95)} ms (${catalogPdf.runs} runs, ${catalogPdf.kilobytes.toFixed(0)} KB)`,
    budget: 'p50 ≤ 300 ms',
    met: catalogPdf.p50 <= 300,
  });
}
if (payoutPdf) {
  rows.push({
    section: 'PDF',
    what: 'payout of a 30-seller group (GET /api/admin/payouts/{id}/export.pdf)',
    figure: `p50 ${ms(payoutPdf.p50)} ms, p95 ${ms(payoutPdf.p95)} ms (${payoutPdf.runs} runs, ${payoutPdf.kilobytes.toFixed(0)} KB)`,
    budget: '– (reported)',
  });
}
if (web) {
  const list = (files: { file: string; gzip: number }[]) => files.map((file) => `${path.basename(file.file)} ${kb(file.gzip)}`).join(', ');
  rows.push({ section: 'web', what: 'JS of /login (gzip)', figure: `${kb(web.login.jsGzip)}: ${list(web.login.js)}`, budget: '–' });
  rows.push({
    section: 'web',
    what: 'JS of /login and /dashboard together (gzip)',
    figure: `${kb(web.loginAndDashboardJsGzip)}: ${list(web.dashboard.js)}`,
    budget: '≤ 120 KB (issue 23)',
    met: web.loginAndDashboardJsGzip <= 120 * 1024,
  });
  rows.push({
    section: 'web',
    what: web.cssInlined ? 'index.html with the style sheet inlined (gzip)' : 'CSS of /login and /dashboard (gzip)',
    figure: web.cssInlined
      ? `${kb(web.html.gzip)} (the style sheet alone ${kb(web.dashboard.cssGzip)})`
      : `${kb(web.dashboard.cssGzip)}: ${list(web.dashboard.css)}`,
    budget: '–',
  });
  rows.push({
    section: 'web',
    what: 'admin area (gzip, beyond what /dashboard loads)',
    figure: `${kb(web.admin.jsGzip + web.admin.cssGzip)}: ${list([...web.admin.js, ...web.admin.css])}`,
    budget: 'a separate chunk',
    met: web.adminSeparate,
  });
}
for (const [page, figures] of lighthouse) {
  const extra = web
    ? figures.loaded.filter(
        (file) => !web!.dashboard.js.some((js) => `/${js.file}` === file) && !web!.dashboard.css.some((css) => `/${css.file}` === file),
      )
    : [];
  rows.push({
    section: 'Lighthouse (mobile)',
    what: `${page}${page === '/dashboard' ? ' (signed in)' : ''}`,
    figure:
      `performance ${figures.performance} (runs ${figures.performanceRuns.join(', ')}), accessibility ${figures.accessibility}; ` +
      `FCP ${ms(figures.metrics.fcp / 1000)} s, LCP ${ms(figures.metrics.lcp / 1000)} s, TBT ${figures.metrics.tbt.toFixed(0)} ms, CLS ${figures.metrics.cls.toFixed(3)}` +
      (extra.length ? `; also loaded: ${extra.join(', ')}` : ''),
    budget: page === '/dashboard' ? 'performance 100 (issue 23), accessibility 100' : 'both ≥ 95',
    met:
      page === '/dashboard'
        ? figures.performance >= 100 && figures.accessibility >= 100
        : figures.performance >= 95 && figures.accessibility >= 95,
  });
}

if (buyerPage) {
  rows.push({
    section: 'buyer page (issue 32)',
    what: '/s/{code}: the document, its style inline (nothing else loads)',
    figure: `${kb(buyerPage.gzip)} gzip (${kb(buyerPage.bytes)})`,
    budget: '≤ 15 KB gzip',
    met: buyerPage.gzip <= 15 * 1024,
  });
  const { performance: p, accessibility: a, bestPractices: b, seo, performanceRuns, metrics } = buyerPage.lighthouse;
  rows.push({
    section: 'buyer page (issue 32)',
    what: 'Lighthouse (mobile), every category; is-crawlable skipped (noindex on purpose)',
    figure: `performance ${p} (runs ${performanceRuns.join(', ')}), accessibility ${a}, best practices ${b}, SEO ${seo}; LCP ${ms(metrics.lcp / 1000)} s`,
    budget: '100 on each',
    met: [p, a, b, seo].every((score) => score === 100),
  });
}

console.log(`\n${printTable(rows)}\n`);
const git = (...gitArgs: string[]) => execFileSync('git', gitArgs, { cwd: root, encoding: 'utf8' }).trim();
const cpu = os.cpus();
const info = {
  date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  commit: git('rev-parse', 'HEAD'),
  dirtyFiles: git('status', '--porcelain').split('\n').filter(Boolean).length,
  machine: `${cpu.length} × ${cpu[0]?.model.trim()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Linux ${os.release()}`,
  node: process.versions.node,
  database: (full ?? tenth) ? await postgresVersion((full ?? tenth)!) : '–',
  dataSets: [full, tenth].filter((set): set is BenchDatabase => Boolean(set)).map((set) => describe(set.shape)),
  loadBefore,
  loadAfter: os.loadavg(),
  command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  settings: [
    `load: autocannon, ${CONNECTIONS} connections, ${warmupSeconds} s warm-up then ${loadSeconds} s per call, in the bench process; each request a different caller's token (signed with the app's access-token signer), every caller called once at the end of the warm-up; the server is one Node process started as in production with LOG_LEVEL=warn and RATE_LIMITS=0`,
    'server, database, autocannon and Chromium share the same machine',
    ...(clusterLoad.size > 0
      ? [
          `WEB_CONCURRENCY rows: the server as main.ts starts it (node:cluster primary and ${CLUSTER_WORKERS.join(' or ')} workers), each worker with its own DATABASE_POOL_SIZE`,
        ]
      : []),
  ],
  seconds: (performance.now() - started) / 1000,
};
if (!only) {
  writeResults(path.join(here, 'RESULTS.md'), rows, info);
  log('Skrev bench/RESULTS.md');
} else {
  log(formatTable(rows));
}
