import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAdminSellerListQuerySchema,
  ZAdminSellerListResponseSchema,
  ZAdminSellerOrdersQuerySchema,
  ZAdminSellerOrdersResponseSchema,
  ZAdminSellerParamsSchema,
} from '@saljportalen/contract';
import { listSellerOrders } from './list-seller-orders.js';
import { listSellers } from './list-sellers.js';

/** Registered by adminRoutes, behind its superadmin guard. */
export async function sellerAdminRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/admin/sellers',
    { schema: { querystring: ZAdminSellerListQuerySchema, response: { 200: ZAdminSellerListResponseSchema } } },
    async (request) => listSellers(app.db, request.query),
  );

  app.get(
    '/api/admin/seller/:userId/orders',
    {
      schema: {
        params: ZAdminSellerParamsSchema,
        querystring: ZAdminSellerOrdersQuerySchema,
        response: { 200: ZAdminSellerOrdersResponseSchema },
      },
    },
    async (request) => listSellerOrders(app.db, { userId: request.params.userId, query: request.query }),
  );
}
