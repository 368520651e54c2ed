import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAdminOverviewQuerySchema,
  ZAdminOverviewResponseSchema,
  ZSalesPerWeekQuerySchema,
  ZSalesPerWeekResponseSchema,
} from '@saljportalen/contract';
import { loadOverview } from '../../figures/load-overview.js';
import { salesPerWeek } from '../../figures/sales-over-time.js';

/** Registered by adminRoutes, behind its superadmin guard. */
export async function overviewRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/admin/overview',
    { schema: { querystring: ZAdminOverviewQuerySchema, response: { 200: ZAdminOverviewResponseSchema } } },
    async (request) => loadOverview(app.db, request.query),
  );

  // Issue 20: every group's sales per ISO week, the overview's chart.
  app.get(
    '/api/admin/overview/sales-per-week',
    { schema: { querystring: ZSalesPerWeekQuerySchema, response: { 200: ZSalesPerWeekResponseSchema } } },
    async (request) => salesPerWeek(app.db, { weeks: request.query.weeks }),
  );
}
