import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/** "4 minuter", "1 sekund": how long until the window ends, as a person reads it. */
export function swedishDuration(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'sekund' : 'sekunder'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minut' : 'minuter'}`;
}

export const tooManyAttempts = (ttlMs: number) =>
  new AppError('RATE_LIMITED', `För många försök. Vänta ${swedishDuration(ttlMs)} och försök igen.`);

/** Per-route limit on the caller's address, off when RATE_LIMITS=0 (load tests and the browser suite). */
export function routeRateLimit(app: FastifyInstance, max: number, timeWindow: string): FastifyContextConfig {
  return { rateLimit: app.config.rateLimits ? { max, timeWindow } : false };
}
