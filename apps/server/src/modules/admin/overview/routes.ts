import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAdminOverviewQuerySchema, ZAdminOverviewResponseSchema } from '@saljportalen/contract';
import { loadOverview } from '../../figures/load-overview.js';

/** Registered by adminRoutes, behind its superadmin guard. */
export async function overviewRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/admin/overview',
    { schema: { querystring: ZAdminOverviewQuerySchema, response: { 200: ZAdminOverviewResponseSchema } } },
    async (request) => loadOverview(app.db, request.query),
  );
}
