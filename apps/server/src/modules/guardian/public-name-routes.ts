import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZGuardianChildParamsSchema, ZPublicNameRequestSchema, ZPublicNameResponseSchema } from '@saljportalen/contract';
import { currentUser } from '../../lib/current-user.js';
import { loadPublicName } from '../account/set-public-name.js';
import { loadChildView } from './guardian-children.js';
import { setChildPublicName } from './set-child-public-name.js';

/** The approved guardian chooses how buyers see a child under 13 (issue 22 point 7). */
export async function guardianPublicNameRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  // The choice as it stands, for the guardian's form: only an approved guardian of this very child.
  app.get(
    '/api/guardian/children/:id/public-name',
    { onRequest: app.authenticate, schema: { params: ZGuardianChildParamsSchema, response: { 200: ZPublicNameResponseSchema } } },
    async (request) => {
      const { child } = await loadChildView(app.db, app.readModel, currentUser(request).id, request.params.id);
      return loadPublicName(app.db, child.id);
    },
  );

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
