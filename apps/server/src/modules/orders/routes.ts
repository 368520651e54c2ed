import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAssignOrderParamsSchema,
  ZAssignOrderRequestSchema,
  ZAssignOrderResponseSchema,
  ZUnattributedOrdersQuerySchema,
  ZUnattributedOrdersResponseSchema,
} from '@saljportalen/contract';
import { currentUser } from '../../lib/current-user.js';
import { assignOrder } from './assign-order.js';
import { listUnattributedOrders } from './list-unattributed-orders.js';

/**
 * Superadmin calls for orders that no personal link code matched (issue 6, attribution);
 * registered by adminRoutes, behind its superadmin guard.
 */
export async function orderAdminRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/admin/orders/unattributed',
    { schema: { querystring: ZUnattributedOrdersQuerySchema, response: { 200: ZUnattributedOrdersResponseSchema } } },
    async (request) => listUnattributedOrders(app.db, { page: request.query.page, pageSize: request.query.page_size }),
  );

  app.post(
    '/api/admin/orders/:id/assign',
    { schema: { params: ZAssignOrderParamsSchema, body: ZAssignOrderRequestSchema, response: { 200: ZAssignOrderResponseSchema } } },
    async (request) => ({
      ok: true as const,
      order: await assignOrder(app.db, {
        orderId: request.params.id,
        membershipId: request.body.membership_id,
        onlyIfUnattributed: request.body.only_if_unattributed,
        actorUserId: currentUser(request).id,
      }),
    }),
  );
}
