import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZGuardianChildParamsSchema, ZPublicNameRequestSchema, ZPublicNameResponseSchema } from '@saljportalen/contract';
import { currentUser } from '../../plugins/auth.js';
import { setChildPublicName } from './set-child-public-name.js';

/** The approved guardian chooses how buyers see a child under 13 (issue 22 point 7). */
export async function guardianPublicNameRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/guardian/children/:id/public-name',
    {
      onRequest: app.authenticate,
      schema: { params: ZGuardianChildParamsSchema, body: ZPublicNameRequestSchema, response: { 200: ZPublicNameResponseSchema } },
    },
    async (request) =>
      setChildPublicName(app.db, {
        guardianUserId: currentUser(request).id,
        childUserId: request.params.id,
        choice: request.body,
      }),
  );
}
