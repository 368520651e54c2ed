import type { FastifyInstance } from 'fastify';
import { orderAdminRoutes } from '../orders/admin-routes.js';
import { shopifyWebhookRoutes } from './webhook-routes.js';

/** Orders and products from Shopify (issue 6): the webhook, and the superadmin calls for orders no link code matched. */
export async function shopifyRoutes(app: FastifyInstance) {
  await app.register(shopifyWebhookRoutes);
  await app.register(orderAdminRoutes);
}
