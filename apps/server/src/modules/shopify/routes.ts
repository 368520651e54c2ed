import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZShopifyWebhookReceiptSchema,
  ZWebhookEventDetailSchema,
  ZWebhookEventParamsSchema,
  ZWebhookEventsQuerySchema,
  ZWebhookEventsResponseSchema,
  ZWebhookReplayResponseSchema,
} from '@saljportalen/contract';
import { currentUser } from '../../lib/current-user.js';
import { routeRateLimit } from '../../lib/rate-limits.js';
import { listWebhookEvents, loadWebhookEventDetail } from './list-webhook-events.js';
import { receiveShopifyWebhook } from './receive-shopify-webhook.js';
import { replayWebhookEvent } from './replay-webhook-event.js';

/** Large orders run to a few hundred kB; this leaves room without inviting abuse. */
const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Orders and products from Shopify (issue 6): the webhook. Registered in its own encapsulated
 * context: the signature is computed over the exact bytes Shopify sent, so in here (and only in
 * here) every body arrives as an unparsed Buffer. The superadmin's calls for orders no link code
 * matched are in orders/routes.ts; both admin route plugins are registered by adminRoutes.
 */
export async function shopifyRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.post(
    '/api/webhooks/shopify',
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      config: routeRateLimit(app, 1200, '1 minute'),
      schema: { response: { 200: ZShopifyWebhookReceiptSchema } },
    },
    async (request) =>
      receiveShopifyWebhook(
        app.db,
        {
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          hmac: header(request, 'x-shopify-hmac-sha256'),
          topic: header(request, 'x-shopify-topic'),
          webhookId: header(request, 'x-shopify-webhook-id'),
          shopDomain: header(request, 'x-shopify-shop-domain'),
          triggeredAt: header(request, 'x-shopify-triggered-at'),
        },
        { secret: app.config.shopifyWebhookSecret, defaultCommissionBps: app.config.defaultCommissionBps, log: request.log },
      ),
  );
}

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
