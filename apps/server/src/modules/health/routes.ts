import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZHealthResponseSchema, ZReadyResponseSchema } from '@saljportalen/contract';
import { isDraining } from '../../lib/close-gracefully.js';
import { migrationState } from '../../db/client.js';
import { AppError, databaseUnavailable } from '../../errors.js';

/**
 * The readiness check's own limit: a load balancer's probe should not wait on the pool's, and is
 * told within two seconds that the database is away (issue 34 point 3).
 */
export const READY_CHECK_TIMEOUT_MS = 1_500;

/**
 * Liveness and readiness (DESIGN §4, decision 021). `/api/health` answers from the process alone,
 * so a database that is away never gets a live server restarted; `/api/ready` says whether this
 * process should be sent traffic: the database answers, has every migration, and the process is
 * not draining for shutdown.
 */
export async function healthRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  let draining = false;
  // Shutdown marks the server draining as it begins (close-gracefully.ts); a plain app.close() runs preClose.
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });

  app.get('/api/health', { schema: { response: { 200: ZHealthResponseSchema } } }, async () => ({
    status: 'ok' as const,
    database: app.database.kind,
  }));

  app.get('/api/ready', { schema: { response: { 200: ZReadyResponseSchema } } }, async () => {
    if (draining || isDraining(app)) throw new AppError('UNAVAILABLE', 'Servern stängs: den tar inte emot nya förfrågningar.');
    let timer: NodeJS.Timeout | undefined;
    const state = await Promise.race([
      migrationState(app.db),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(databaseUnavailable()), READY_CHECK_TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    if (state.applied < state.known) {
      throw new AppError('UNAVAILABLE', `Databasen saknar ${state.known - state.applied} migreringar: servern är inte redo.`);
    }
    // The seller calls answer from the read model: while it loads anew (after a lost feed) they wait.
    if (!app.readModel.isReady) throw new AppError('UNAVAILABLE', 'Servern läser in sina data: den är inte redo än.');
    return { status: 'ready' as const, database: app.database.kind, migrations: state.applied };
  });
}
