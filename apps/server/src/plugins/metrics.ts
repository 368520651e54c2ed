import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.js';
import { readMetricsFrom } from '../db/database-metrics.js';
import { httpRequestDuration, httpRequests, metricsRegistry, metricsText } from '../lib/metrics.js';

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest();

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
const isLoopback = (address: string | undefined) =>
  !!address && (address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address));

/**
 * The headers a client that speaks for itself sends: a scraper (Prometheus, curl, wget), node's
 * fetch, a browser on this machine. A proxy adds its own (X-Forwarded-For, Forwarded, Via,
 * X-Real-IP, X-Client-IP, True-Client-IP, CF-Connecting-IP, X-Forwarded-Host, and names no list
 * could know), so without a token any other header is taken as a proxy speaking for someone else
 * (issue 28: a list of the three known ones let the rest through).
 */
const DIRECT_CLIENT_HEADERS = new Set([
  'host',
  'user-agent',
  'accept',
  'accept-encoding',
  'accept-language',
  'authorization',
  'cache-control',
  'pragma',
  'connection',
  'keep-alive',
  'te',
  'content-length',
  'upgrade-insecure-requests',
  'dnt',
  'priority',
  'x-prometheus-scrape-timeout-seconds',
]);
/** Set by browsers only (a page cannot set them): the fetch metadata and client hints. */
const isBrowserHeader = (name: string) => name.startsWith('sec-fetch-') || name.startsWith('sec-ch-');

/**
 * Who may read the metrics: with METRICS_TOKEN set, whoever shows it as a bearer token; without
 * it, only a caller on this machine itself: the socket's address is loopback and the request
 * carries no header but those a client sends for itself (DIRECT_CLIENT_HEADERS), whatever
 * TRUST_PROXY says: a proxy on this machine forwarding a visitor adds one.
 */
function checkMetricsAccess(request: FastifyRequest, token: string | undefined) {
  if (token) {
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim() ?? '';
    // Compared as digests, which have one length, in constant time.
    if (!crypto.timingSafeEqual(sha256(given), sha256(token))) {
      throw new AppError('UNAUTHENTICATED', 'Mätvärdena kräver rätt METRICS_TOKEN som bearer-token.');
    }
    return;
  }
  const throughProxy = Object.keys(request.headers).some((name) => !DIRECT_CLIENT_HEADERS.has(name) && !isBrowserHeader(name));
  if (!isLoopback(request.socket.remoteAddress) || throughProxy) {
    throw new AppError('FORBIDDEN', 'Mätvärdena kan bara läsas från servern själv, eller med METRICS_TOKEN.');
  }
}

/** The route each request is counted under: its pattern, or `other` for what no route matched (the web app's pages, unknown addresses). */
const routeLabel = (request: FastifyRequest) => request.routeOptions.url ?? 'other';

export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const letGo = readMetricsFrom(app.database);
    app.addHook('onClose', async () => letGo());

    app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
      const route = routeLabel(request);
      httpRequests.inc({ route, method: request.method, status: String(reply.statusCode) });
      httpRequestDuration.observe({ route, method: request.method }, reply.elapsedTime / 1000);
      done();
    });

    app.get('/metrics', async (request, reply) => {
      checkMetricsAccess(request, app.config.metricsToken);
      const text = await metricsText();
      return reply.type(metricsRegistry.contentType).header('cache-control', 'no-store').send(text);
    });
  },
  { name: 'metrics', dependencies: ['core'] },
);
