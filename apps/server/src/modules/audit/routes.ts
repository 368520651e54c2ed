import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAuditQuerySchema, ZAuditResponseSchema } from '@saljportalen/contract';
import { listAuditEntries } from './list-audit-entries.js';

/** 'Händelselogg' (issue 21): the audit entries of admin actions; registered by adminRoutes, behind its superadmin guard. */
export async function auditAdminRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get('/api/admin/audit', { schema: { querystring: ZAuditQuerySchema, response: { 200: ZAuditResponseSchema } } }, async (request) =>
    listAuditEntries(app.db, { action: request.query.action, page: request.query.page, pageSize: request.query.page_size }),
  );
}
