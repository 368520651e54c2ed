import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { ZEmailSchema } from '@saljportalen/contract';
import { AppError } from './errors.js';

const flag = z.enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off']).transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

/** `https://portal.skolan.se`: scheme, host and port, nothing more (what a browser sends in Origin). */
const isOrigin = (value: string) => URL.canParse(value) && new URL(value).origin === value;

/** Named ranges the proxy check knows (@fastify/proxy-addr), beside addresses and CIDR ranges. */
const NAMED_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];
const TRUST_PROXY_ADVICE =
  'Ange proxyns adresser (TRUST_PROXY=10.0.0.10, flera kommaseparerade, eller intervall som 10.0.0.0/8) eller loopback';

/** `10.0.0.10`, `10.0.0.0/8`, `10.0.0.0/255.0.0.0`, `fd00::/8`: the prefix of a range is 0 for "every address". */
function proxyEntryProblem(entry: string): string | undefined {
  if (NAMED_PROXY_RANGES.includes(entry)) return undefined;
  const [address = '', range, ...rest] = entry.split('/');
  const kind = net.isIP(address);
  if (kind === 0 || rest.length > 0) return `"${entry}" är ingen adress eller intervall`;
  if (range === undefined) return undefined;
  const bits = /^\d+$/.test(range) ? Number(range) : kind === 4 && net.isIPv4(range) ? undefined : NaN;
  if (bits === undefined) return range === '0.0.0.0' ? `"${entry}" omfattar alla adresser` : undefined;
  if (Number.isNaN(bits) || bits > (kind === 4 ? 32 : 128)) return `"${entry}" har ett ogiltigt intervall`;
  return bits === 0 ? `"${entry}" omfattar alla adresser` : undefined;
}

/**
 * Which proxies may tell us the caller's address in X-Forwarded-For: addresses and ranges
 * (`loopback`, `10.0.0.0/8`, …), or `false` for none. Trusting any (`true`, a range of every
 * address) would let every client pick its own address and slip past the per-address rate
 * limits, so it stops the start, as does an entry the proxy check could not read (issue 28).
 */
function trustProxyOf(value: string): false | string {
  const entries = value
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 1 && ['false', '0', 'no', 'off', 'none'].includes(entries[0]!)) return false;
  if (entries.some((entry) => ['true', '1', 'yes', 'on', '*', 'all'].includes(entry))) {
    throw new AppError(
      'CONFIG',
      `TRUST_PROXY=${value.trim()} är inte tillåtet: då får vem som helst välja sin egen adress i X-Forwarded-For och komma förbi gränserna per adress. ${TRUST_PROXY_ADVICE}.`,
    );
  }
  const problems = entries.map(proxyEntryProblem).filter((problem): problem is string => problem !== undefined);
  if (problems.length > 0 || entries.length === 0) {
    throw new AppError(
      'CONFIG',
      `Ogiltig konfiguration: TRUST_PROXY: ${problems.join(', ') || 'tomt'}. ${TRUST_PROXY_ADVICE}, eller false.`,
    );
  }
  return entries.join(',');
}

/** PUBLIC_URL, read as a browser reads it: `HTTPS://Portal.Skolan.se/` is https://portal.skolan.se. */
function publicUrlOf(value: string | undefined, port: number): { url: string; https: boolean } {
  const url = new URL(value ?? `http://localhost:${port}`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError(
      'CONFIG',
      `Ogiltig konfiguration: PUBLIC_URL: ange portalens adress med http:// eller https:// (inte ${url.protocol}).`,
    );
  }
  return { url: `${url.origin}${url.pathname}`.replace(/\/$/, ''), https: url.protocol === 'https:' };
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  PUBLIC_URL: z.string().url().optional(),
  SHOP_URL: z.string().url().default('https://butik.saljportalen.se'),
  JWT_SECRET: z.string().min(32).optional(),
  SHOPIFY_WEBHOOK_SECRET: z.string().min(1).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Säljportalen <no-reply@saljportalen.se>'),
  /** Whom people write to about their data, shown on the privacy page /integritet (issue 22). */
  PRIVACY_CONTACT: z.string().trim().min(3).max(200).default('integritet@saljportalen.se'),
  /** The wait before a failed mail's first retry; it doubles each time, up to 30 times this (issue 17). */
  MAIL_RETRY_MS: z.coerce.number().int().min(10).default(30_000),
  /** Off: no scheduled job runs in this process (retention, sale mails, weekly summaries); another process may run them. */
  SCHEDULED_JOBS: flag.default(true),
  /** How often an open live-figure stream gets a heartbeat comment, so proxies keep it open (modules/live). */
  LIVE_HEARTBEAT_MS: z.coerce.number().int().min(50).max(120_000).default(15_000),
  /**
   * Slow clients (issue 28): how long a client may take to send its request's headers, and its whole
   * request (a 5 MB webhook body included). Neither limits an answer, so a live-figure stream lasts.
   */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** A connection on which nothing moves this long is closed (a live stream opts out: its heartbeat moves). */
  CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /** An idle keep-alive connection is closed after this; longer than a proxy's own idle time (often 60 s). */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(72_000),
  /** Requests on one keep-alive connection, then it is closed (0: no limit). */
  MAX_REQUESTS_PER_SOCKET: z.coerce.number().int().min(0).max(1_000_000).default(1_000),
  /** Connections this process holds at once, live streams included; a new one past it is closed at once. */
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** The contract's address rule, like every address that enters: never a tombstone's (decision 050). */
  SUPERADMIN_EMAIL: ZEmailSchema.optional(),
  SUPERADMIN_PASSWORD: z.string().min(8).optional(),
  SUPERADMIN_RESET_PASSWORD: flag.default(false),
  SEED_DEMO: flag.optional(),
  /** Lets a start with demo accounts listen on a HOST other than this computer (main.ts, issue 28). */
  ALLOW_DEMO_ON_NETWORK: flag.default(false),
  NODE_ENV: z.string().optional(),
  DEFAULT_COMMISSION_BPS: z.coerce.number().int().min(0).max(10000).default(2500),
  /**
   * Days a buyer may withdraw (distance selling: 14): commission of an order younger than this is
   * 'Väntande' and no payout takes it (issue 30 point 4). 0, the default, pays everything at once.
   */
  PAYOUT_HOLD_DAYS: z.coerce
    .number({ error: 'ange ett heltal från 0 till 60' })
    .int('ange ett heltal från 0 till 60')
    .min(0, 'ange ett heltal från 0 till 60')
    .max(60, 'ange ett heltal från 0 till 60')
    .default(0),
  REDIS_URL: z.string().optional(),
  CORS_ORIGIN: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .refine((origins) => origins.every(isOrigin), 'ange ursprung som https://exempel.se, kommaseparerade')
    .optional(),
  TRUST_PROXY: z.string().default('loopback'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMITS: flag.default(true),
  METRICS_TOKEN: z.string().min(16, 'minst 16 tecken').optional(),
  WEB_DIST: z.string().optional(),
  WEB_CONCURRENCY: z.coerce
    .number({ error: 'ange ett heltal från 1 till 64' })
    .int('ange ett heltal från 1 till 64')
    .min(1, 'ange ett heltal från 1 till 64')
    .max(64, 'ange ett heltal från 1 till 64')
    .default(1),
});

export type Config = ReturnType<typeof loadConfig>;

/** Reads and validates the environment once at boot (DESIGN §5). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new AppError('CONFIG', `Ogiltig konfiguration: ${problems}`);
  }
  const values = parsed.data;
  const dataDir = path.resolve(values.DATA_DIR);
  const embedded = !values.DATABASE_URL;
  // Every look at the scheme (here, Secure cookies, HSTS) reads the parsed protocol, never the text (issue 28).
  const { url: publicUrl, https } = publicUrlOf(values.PUBLIC_URL, values.PORT);
  const trustProxy = trustProxyOf(values.TRUST_PROXY);
  // The demo's accounts are public knowledge (their password is printed at every start): they
  // have no place in an install that names its own superadmin, has a real address or says it is
  // production. There demo data is off by default, and asking for it is refused.
  const realInstall = [
    values.SUPERADMIN_EMAIL && 'SUPERADMIN_EMAIL är satt',
    https && 'PUBLIC_URL är https',
    values.NODE_ENV === 'production' && 'NODE_ENV=production',
  ].filter((reason): reason is string => Boolean(reason));
  if (values.SEED_DEMO && realInstall.length > 0) {
    throw new AppError(
      'CONFIG',
      `SEED_DEMO=1 är inte tillåtet här (${realInstall.join(', ')}): demodatans konton har kända lösenord och hör inte hemma i en riktig installation. Ta bort SEED_DEMO, eller kör demon i en egen DATA_DIR utan dessa inställningar.`,
    );
  }
  // PGlite is the database inside one process, on files that process locks: a second worker
  // could not open it (decision 026).
  if (values.HEADERS_TIMEOUT_MS > values.REQUEST_TIMEOUT_MS) {
    throw new AppError(
      'CONFIG',
      `HEADERS_TIMEOUT_MS (${values.HEADERS_TIMEOUT_MS}) får inte vara längre än REQUEST_TIMEOUT_MS (${values.REQUEST_TIMEOUT_MS}): rubrikerna är en del av förfrågan.`,
    );
  }
  if (values.WEB_CONCURRENCY > 1 && embedded) {
    throw new AppError(
      'CONFIG',
      `WEB_CONCURRENCY=${values.WEB_CONCURRENCY} kräver DATABASE_URL: den inbäddade databasen (PGlite) kan bara användas av en process. Sätt DATABASE_URL till en PostgreSQL-databas, eller ta bort WEB_CONCURRENCY.`,
    );
  }
  return {
    port: values.PORT,
    /** Unset: 127.0.0.1 while the database has demo accounts, every interface otherwise (main.ts). */
    host: values.HOST,
    dataDir,
    databaseUrl: values.DATABASE_URL,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    publicUrl,
    /** PUBLIC_URL is https (any case): refresh cookies are Secure, HSTS is sent (plugins/security.ts). */
    https,
    shopUrl: values.SHOP_URL.replace(/\/$/, ''),
    jwtSecret: values.JWT_SECRET,
    shopifyWebhookSecret: values.SHOPIFY_WEBHOOK_SECRET,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    mailRetryMs: values.MAIL_RETRY_MS,
    privacyContact: values.PRIVACY_CONTACT,
    scheduledJobs: values.SCHEDULED_JOBS,
    liveHeartbeatMs: values.LIVE_HEARTBEAT_MS,
    /** What a slow or idle client may hold (app.ts gives them to Fastify and Node's server). */
    connections: {
      headersTimeoutMs: values.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: values.REQUEST_TIMEOUT_MS,
      connectionTimeoutMs: values.CONNECTION_TIMEOUT_MS,
      keepAliveTimeoutMs: values.KEEP_ALIVE_TIMEOUT_MS,
      maxRequestsPerSocket: values.MAX_REQUESTS_PER_SOCKET,
      maxConnections: values.MAX_CONNECTIONS,
    },
    superadmin:
      values.SUPERADMIN_EMAIL && values.SUPERADMIN_PASSWORD
        ? { email: values.SUPERADMIN_EMAIL, password: values.SUPERADMIN_PASSWORD, resetPassword: values.SUPERADMIN_RESET_PASSWORD }
        : undefined,
    seedDemo: values.SEED_DEMO ?? (embedded && realInstall.length === 0),
    allowDemoOnNetwork: values.ALLOW_DEMO_ON_NETWORK,
    defaultCommissionBps: values.DEFAULT_COMMISSION_BPS,
    payoutHoldDays: values.PAYOUT_HOLD_DAYS,
    redisUrl: values.REDIS_URL,
    corsOrigins: values.CORS_ORIGIN ?? [],
    trustProxy,
    logLevel: values.LOG_LEVEL,
    rateLimits: values.RATE_LIMITS,
    /** Unset: GET /metrics answers callers on this machine only (plugins/metrics.ts). */
    metricsToken: values.METRICS_TOKEN,
    webDist: values.WEB_DIST,
    /** Server workers on this machine (node:cluster, cluster.ts); 1 is one process, no cluster. */
    webConcurrency: values.WEB_CONCURRENCY,
    /** Outside production zod checks every answer beside its compiled writer (lib/response-serializer.ts). */
    checkResponses: values.NODE_ENV !== 'production',
  };
}
