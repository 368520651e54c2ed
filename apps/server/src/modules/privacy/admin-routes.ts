import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAdminSellerParamsSchema, ZOkResponseSchema } from '@saljportalen/contract';
import { currentUser } from '../../lib/current-user.js';
import { eraseAccount } from './erase-account.js';

/** Registered by adminRoutes, behind its superadmin guard: a superadmin erases a person's account. */
export async function privacyAdminRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/admin/users/:userId/erase',
    { schema: { params: ZAdminSellerParamsSchema, response: { 200: ZOkResponseSchema } } },
    async (request) => {
      const actorUserId = currentUser(request).id;
      await app.db.transaction((tx) => eraseAccount(tx, request.params.userId, { actorUserId, reason: 'superadmin' }));
      await app.mailOutbox.forgetFiles();
      return { ok: true as const };
    },
  );
}
