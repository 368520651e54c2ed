import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import rateLimit from '@fastify/rate-limit';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import { hasForbiddenCharacter } from '@saljportalen/contract';
import { AppError } from '../errors.js';
import { databaseAttemptCounters, fallbackAttemptCounters } from '../db/attempt-counters.js';
import { databaseRateLimitStore } from '../db/rate-limit-store.js';
import { redisWithFallback } from '../db/redis-fallback.js';
import { tooManyAttempts } from '../lib/rate-limits.js';

/**
 * The headers helmet sets for these options, worked out once: they depend on the configuration,
 * not on the request (@fastify/helmet builds helmet again on every request).
 */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: () => {},
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, recorder, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Whether any string (key or value) in a parsed body, query or path holds a character no text may
 * hold (`hasForbiddenCharacter`: NUL, which PostgreSQL's text and jsonb cannot store, or a lone
 * surrogate, which jsonb refuses). Walked with a stack, not recursion, because JSON.parse accepts
 * nesting deeper than the call stack. Buffers (the Shopify webhook's raw body) are not text yet.
 */
function holdsForbiddenCharacter(value: unknown): boolean {
  const pending = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (hasForbiddenCharacter(current)) return true;
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, item] of Object.entries(current)) {
        if (hasForbiddenCharacter(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/**
 * Security headers (strict CSP: scripts only from our origin), cookies, CORS only for the origins
 * configured, and rate limits that routes opt into. The counters live in PostgreSQL (the
 * `rate_limits` table), or in Redis when REDIS_URL is set, so every server process shares them.
 */
export const securityPlugin = fp(
  async (app: FastifyInstance) => {
    const https = app.config.https;
    const headers = securityHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // Inline styles only (Radix and toasts inject style elements; decision 004); scripts stay strictly same-origin.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          manifestSrc: ["'self'"],
          workerSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // The same as frame-ancestors 'none', for browsers that predate CSP 2.
      frameguard: { action: 'deny' },
      crossOriginEmbedderPolicy: false,
    });
    // Answers hold personal data (names, sales, CSV and PDF downloads): no browser or proxy keeps
    // one unless its route says otherwise (the web app's hashed assets and shell, plugins/web.ts).
    headers['cache-control'] = 'no-store';
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
    await app.register(cookie);

    // One check for every route, before its schema: no text of any call (query, path, body, its
    // keys too) can hold NUL or a lone surrogate, so none reaches a query or the audit log (decision 053).
    app.addHook('preValidation', async (request) => {
      if (holdsForbiddenCharacter(request.query) || holdsForbiddenCharacter(request.params) || holdsForbiddenCharacter(request.body))
        throw new AppError('VALIDATION', 'Texten innehåller ett otillåtet tecken');
    });

    // Without CORS_ORIGIN no cross-origin page may read an answer: the web app is served from our own origin.
    if (app.config.corsOrigins.length > 0) {
      await app.register(cors, {
        origin: app.config.corsOrigins,
        methods: ['GET', 'POST', 'PATCH'],
        allowedHeaders: ['content-type', 'authorization'],
        // The web saves a download under the server's name for it, the name as written (lib/attachment-header.ts).
        exposedHeaders: ['content-disposition'],
        credentials: true,
        maxAge: 600,
      });
    }

    // With REDIS_URL the counters live in Redis, and in the database while Redis is away (decision 022).
    const redis = app.config.redisUrl ? redisWithFallback(app.config.redisUrl, app.log) : undefined;
    if (redis) {
      app.addHook('onClose', async () => redis.close());
      await redis.connected();
    }
    app.decorate(
      'attemptCounters',
      redis ? fallbackAttemptCounters(redis, 'saljportalen-attempts:', app.db) : databaseAttemptCounters(app.db),
    );
    await app.register(rateLimit, {
      global: false,
      store: databaseRateLimitStore(app.db, redis && { fallback: redis, nameSpace: 'saljportalen-rate-limit:' }),
      errorResponseBuilder: (_request, context) => tooManyAttempts(context.ttl),
    });
  },
  { name: 'security', dependencies: ['core'] },
);
