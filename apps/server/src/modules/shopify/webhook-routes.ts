import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZShopifyWebhookReceiptSchema } from '@saljportalen/contract';
import { routeRateLimit } from '../../lib/rate-limits.js';
import { receiveShopifyWebhook } from './receive-shopify-webhook.js';

/** Large orders run to a few hundred kB; this leaves room without inviting abuse. */
const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Registered in its own encapsulated context: the signature is computed over the exact bytes
 * Shopify sent, so in here (and only in here) every body arrives as an unparsed Buffer.
 */
export async function shopifyWebhookRoutes(instance: FastifyInstance) {
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
