import type { FastifyInstance } from 'fastify';
import { shopifyWebhookRoutes } from './webhook-routes.js';

/** Orders and products from Shopify (issue 6). */
export async function shopifyRoutes(app: FastifyInstance) {
  await app.register(shopifyWebhookRoutes);
}
