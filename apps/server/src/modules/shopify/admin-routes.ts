import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZWebhookEventDetailSchema,
  ZWebhookEventParamsSchema,
  ZWebhookEventsQuerySchema,
  ZWebhookEventsResponseSchema,
  ZWebhookReplayResponseSchema,
} from '@saljportalen/contract';
import { currentUser } from '../../lib/current-user.js';
import { listWebhookEvents, loadWebhookEventDetail } from './list-webhook-events.js';
import { replayWebhookEvent } from './replay-webhook-event.js';

/**
 * 'Webbhookar' (issue 21): the stored Shopify events, their errors, and 'Kör igen'. Registered by
 * adminRoutes, behind its superadmin guard. No answer carries a buyer's personal data.
 */
export async function webhookAdminRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/admin/webhooks',
    { schema: { querystring: ZWebhookEventsQuerySchema, response: { 200: ZWebhookEventsResponseSchema } } },
    async (request) =>
      listWebhookEvents(app.db, { status: request.query.status, page: request.query.page, pageSize: request.query.page_size }),
  );

  app.get(
    '/api/admin/webhooks/:id',
    { schema: { params: ZWebhookEventParamsSchema, response: { 200: ZWebhookEventDetailSchema } } },
    async (request) => loadWebhookEventDetail(app.db, request.params.id),
  );

  app.post(
    '/api/admin/webhooks/:id/replay',
    { schema: { params: ZWebhookEventParamsSchema, response: { 200: ZWebhookReplayResponseSchema } } },
    async (request) =>
      replayWebhookEvent(app.db, {
        eventId: request.params.id,
        actorUserId: currentUser(request).id,
        defaultCommissionBps: app.config.defaultCommissionBps,
      }),
  );
}
