import type { FastifyInstance } from 'fastify';
import { shopifyWebhookRoutes } from './webhook-routes.js';

/**
 * Orders and products from Shopify (issue 6): the webhook. The superadmin's calls for orders no
 * link code matched are admin routes (orders/admin-routes.ts, registered by adminRoutes).
 */
export async function shopifyRoutes(app: FastifyInstance) {
  await app.register(shopifyWebhookRoutes);
}
