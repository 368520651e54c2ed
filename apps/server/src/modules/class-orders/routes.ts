import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAssignOrderParamsSchema,
  ZClassOrdersQuerySchema,
  ZClassOrdersResponseSchema,
  ZMoveOrderRequestSchema,
  ZMoveOrderResponseSchema,
} from '@saljportalen/contract';
import { currentUser } from '../../lib/current-user.js';
import { listClassOrders } from './list-class-orders.js';
import { moveOrder } from './move-order.js';

/** A class's orders, and moving a sale to the pupil who made it (issue 30 point 5): the group's admin, or a superadmin. */
export async function classOrderRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/group/orders',
    { schema: { querystring: ZClassOrdersQuerySchema, response: { 200: ZClassOrdersResponseSchema } } },
    async (request) =>
      listClassOrders(app.db, {
        actorUserId: currentUser(request).id,
        groupId: request.query.group_id,
        page: request.query.page,
        pageSize: request.query.page_size,
      }),
  );

  app.post(
    '/api/group/orders/:id/move',
    { schema: { params: ZAssignOrderParamsSchema, body: ZMoveOrderRequestSchema, response: { 200: ZMoveOrderResponseSchema } } },
    async (request) => ({
      ok: true as const,
      order: await moveOrder(app.db, {
        orderId: request.params.id,
        toMembershipId: request.body.to_membership_id,
        reason: request.body.reason,
        actorUserId: currentUser(request).id,
      }),
    }),
  );
}
