import type { FastifyInstance } from 'fastify';
import { auditAdminRoutes } from '../audit/routes.js';
import { groupRoutes } from '../groups/routes.js';
import { orderAdminRoutes } from '../orders/routes.js';
import { payoutsRoutes } from '../payouts/routes.js';
import { privacyAdminRoutes } from '../privacy/routes.js';
import { webhookAdminRoutes } from '../shopify/routes.js';
import { overviewRoutes } from './overview/routes.js';
import { sellerAdminRoutes } from './sellers/routes.js';

/**
 * The superadmin area: every `/api/admin/*` route is registered here, and only here, behind one
 * guard for the whole subtree: 401 without a valid token, 403 for everyone who is not a
 * superadmin, before any body is even read. The route plugins below declare no guard of their own.
 */
export async function adminRoutes(app: FastifyInstance) {
  app.addHook('onRequest', app.requireSuperadmin);
  await app.register(overviewRoutes);
  await app.register(groupRoutes);
  await app.register(sellerAdminRoutes);
  await app.register(orderAdminRoutes);
  await app.register(payoutsRoutes);
  await app.register(webhookAdminRoutes);
  await app.register(auditAdminRoutes);
  await app.register(privacyAdminRoutes);
}
