import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import cookie from '@fastify/cookie';
import { Redis } from 'ioredis';

/**
 * Security headers (strict CSP: scripts and styles only from our origin), cookies, and rate
 * limits that routes opt into with `config.rateLimit`. With REDIS_URL the counters are shared
 * by every server process.
 */
export const securityPlugin = fp(
  async (app: FastifyInstance) => {
    const https = app.config.publicUrl.startsWith('https://');
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // Inline styles only (Radix and toasts inject style elements); scripts stay strictly same-origin.
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
      crossOriginEmbedderPolicy: false,
    });
    await app.register(cookie);
    await app.register(rateLimit, {
      global: false,
      ...(app.config.redisUrl ? { redis: new Redis(app.config.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 }) } : {}),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        error: { code: 'RATE_LIMITED', message: `För många försök. Försök igen om ${Math.ceil(context.ttl / 1000)} sekunder.` },
      }),
    });
  },
  { name: 'security', dependencies: ['core'] },
);

/** Per-route limit, off when RATE_LIMITS=0 (load tests and the browser suite). */
export function routeRateLimit(app: FastifyInstance, max: number, timeWindow: string): FastifyContextConfig {
  return { rateLimit: app.config.rateLimits ? { max, timeWindow } : false };
}
