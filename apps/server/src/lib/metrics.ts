import cluster from 'node:cluster';
import crypto from 'node:crypto';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { HANDLED_TOPICS } from './shopify-payloads.js';

/**
 * The process's metrics in Prometheus text format (issue 21 §1), read at `GET /metrics`
 * (plugins/metrics.ts).
 * One registry for the process; the counters and histograms are exported by name so that the
 * module where a thing happens counts it (the webhook receiver, the mailer). Every label has a
 * bounded set of values: a route's pattern, never its address; a known webhook topic or `other`.
 * Decision 024.
 */
export const metricsRegistry = new Registry();

// Node's own: CPU, memory, heap, event-loop lag, handles, GC (names as prom-client gives them).
collectDefaultMetrics({ register: metricsRegistry });

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: 'saljportalen_http_requests_total',
  help: 'HTTP requests answered, by route pattern, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'saljportalen_http_request_duration_seconds',
  help: 'Time from receiving a request to its answer, by route pattern and method',
  labelNames: ['route', 'method'] as const,
  buckets: SECONDS_BUCKETS,
  registers: [metricsRegistry],
});

/** Live-figure streams open in this process (modules/live/event-streams.ts); summed over cluster workers. */
export const liveStreamsOpen = new Gauge({
  name: 'saljportalen_event_streams_open',
  help: 'Open live-figure event streams (GET /api/events) of this process',
  registers: [metricsRegistry],
});

/** Whether this process's read model of the seller calls is loaded and following the feed (modules/read-model). */
export const readModelReady = new Gauge({
  name: 'saljportalen_read_model_ready',
  help: 'Whether the read model of the seller calls is loaded and exact (1) or loading (0); summed over cluster workers',
  registers: [metricsRegistry],
});

/** Full loads of the read model: one at start, one after each resync of the change feed. */
export const readModelLoads = new Counter({
  name: 'saljportalen_read_model_loads_total',
  help: 'Full loads of the read model of the seller calls (at start and after each resync of the change feed)',
  registers: [metricsRegistry],
});

/** What became of a delivery to POST /api/webhooks/shopify. */
export type WebhookOutcome =
  | 'processed' // stored and processed: its order, refund or product is recorded
  | 'ignored' // stored, a topic the portal does not handle
  | 'duplicate' // the same webhook id again, already processed
  | 'failed' // stored, but processing failed: it waits for a replay
  | 'refused' // not stored: bad signature, no secret configured, no JSON, a header missing (4xx/503)
  | 'error'; // not stored: the database failed (5xx, Shopify retries)

export const webhookDeliveries = new Counter({
  name: 'saljportalen_webhook_deliveries_total',
  help: 'Shopify webhook deliveries, by topic and outcome',
  labelNames: ['topic', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const webhookProcessingDuration = new Histogram({
  name: 'saljportalen_webhook_processing_seconds',
  help: 'Time to verify, store and process one Shopify webhook delivery, by topic',
  labelNames: ['topic'] as const,
  buckets: SECONDS_BUCKETS,
  registers: [metricsRegistry],
});

export const webhookLag = new Histogram({
  name: 'saljportalen_webhook_lag_seconds',
  help: "From Shopify's X-Shopify-Triggered-At to the event processed here, by topic",
  labelNames: ['topic'] as const,
  // Shopify retries a failed delivery for up to 48 hours; the last bucket is a day.
  buckets: [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 21_600, 86_400],
  registers: [metricsRegistry],
});

/** Runs of a scheduled job that failed in this process (plugins/scheduled-jobs.ts), by job. */
export const jobFailures = new Counter({
  name: 'saljportalen_job_failures_total',
  help: 'Runs of a scheduled job that ended in an error, by job',
  labelNames: ['job'] as const,
  registers: [metricsRegistry],
});

export const mails = new Counter({
  name: 'saljportalen_mails_total',
  help: 'Mail delivery attempts from the mail outbox: sent, failed (tried again later) or given up',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

/** The topics the receiver handles; any other is counted as `other`, so that labels stay few. */
const KNOWN_TOPICS: ReadonlySet<string> = new Set([...HANDLED_TOPICS, 'app/uninstalled']);

export const webhookTopicLabel = (topic: string | undefined): string => (topic && KNOWN_TOPICS.has(topic) ? topic : 'other');

/**
 * Counts one delivery. `triggeredAt` is Shopify's X-Shopify-Triggered-At (an ISO instant); the lag
 * is observed only for an event processed now (processed or ignored), and only when the header
 * is a readable instant: a missing or garbled one is no measurement. A clock a little behind
 * Shopify's counts as no lag rather than a negative one.
 */
export function recordWebhookDelivery(options: {
  topic: string | undefined;
  outcome: WebhookOutcome;
  seconds: number;
  triggeredAt?: string;
}) {
  const topic = webhookTopicLabel(options.topic);
  webhookDeliveries.inc({ topic, outcome: options.outcome });
  webhookProcessingDuration.observe({ topic }, options.seconds);
  if ((options.outcome === 'processed' || options.outcome === 'ignored') && options.triggeredAt) {
    const triggered = Date.parse(options.triggeredAt);
    if (Number.isFinite(triggered)) webhookLag.observe({ topic }, Math.max(0, (Date.now() - triggered) / 1000));
  }
}

/*
 * Several workers on one port (WEB_CONCURRENCY, node:cluster): a scrape reaches one of them, and
 * its own counts alone would jump between workers from one scrape to the next. So a worker asks the
 * primary, which collects every worker's metrics (prom-client's AggregatorRegistry, over the
 * cluster's IPC channel) and adds them up: counters and histograms summed, the gauges marked `max`
 * taken once. The primary answers from the moment this module is loaded in it (main.ts imports
 * the app, and with it this module, in the primary too).
 */
const ASK = 'saljportalen:metrics?';
const ANSWER = 'saljportalen:metrics';
const CLUSTER_ANSWER_MS = 10_000;

interface MetricsAnswer {
  type: typeof ANSWER;
  id: string;
  text?: string;
  error?: string;
}

if (cluster.isWorker) {
  // The primary's collector asks for this registry (prom-client's default would be its global one).
  AggregatorRegistry.setRegistries([metricsRegistry]);
  // Constructing one installs the worker's answer to the collector.
  new AggregatorRegistry();
} else {
  const collector = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: unknown; id?: unknown } | null) => {
    if (message?.type !== ASK || typeof message.id !== 'string') return;
    const id = message.id;
    // With a callback, a worker gone meanwhile is no error event that would end the primary.
    const answer = (reply: MetricsAnswer) => worker.isConnected() && worker.send(reply, () => {});
    collector.clusterMetrics().then(
      (text) => answer({ type: ANSWER, id, text }),
      (error: unknown) => answer({ type: ANSWER, id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/** The text of GET /metrics: this process's metrics, or in a cluster worker all the workers' together. */
export async function metricsText(): Promise<string> {
  const send = process.send?.bind(process);
  if (!cluster.isWorker || !send) return metricsRegistry.metrics();
  const id = crypto.randomUUID();
  return new Promise((resolve, reject) => {
    const onMessage = (message: MetricsAnswer | null) => {
      if (message?.type !== ANSWER || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      if (message.error !== undefined || message.text === undefined) reject(new Error(`mätvärdena kunde inte samlas: ${message.error}`));
      else resolve(message.text);
    };
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new Error('mätvärdena kunde inte samlas: huvudprocessen svarade inte'));
    }, CLUSTER_ANSWER_MS);
    process.on('message', onMessage);
    send({ type: ASK, id }, undefined, undefined, (error: Error | null) => {
      if (!error) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      reject(error);
    });
  });
}
