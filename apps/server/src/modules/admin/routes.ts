import type { FastifyInstance } from 'fastify';
import { groupRoutes } from '../groups/routes.js';
import { sellerAdminRoutes } from './sellers/routes.js';
import { overviewRoutes } from './overview/routes.js';

/**
 * The superadmin area (issue 4). One guard for the whole subtree: 401 without a valid token,
 * 403 for everyone who is not a superadmin, before any body is even read.
 */
export async function adminRoutes(app: FastifyInstance) {
  app.addHook('onRequest', app.requireSuperadmin);
  await app.register(overviewRoutes);
  await app.register(groupRoutes);
  await app.register(sellerAdminRoutes);
}
