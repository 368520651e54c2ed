import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZGroupMembersQuerySchema,
  ZGroupMembersResponseSchema,
  ZSetProtectedIdentityRequestSchema,
  ZSetProtectedIdentityResponseSchema,
} from '@saljportalen/contract';
import { currentUser } from '../../lib/current-user.js';
import { listClassMembers } from './list-class-members.js';
import { setProtectedIdentity } from './set-protected-identity.js';

/** The class list of a group's admin, and the protected-identity mark (issue 22 point 7). */
export async function groupMemberRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/group/members',
    { schema: { querystring: ZGroupMembersQuerySchema, response: { 200: ZGroupMembersResponseSchema } } },
    async (request) => listClassMembers(app.db, { actorUserId: currentUser(request).id, groupId: request.query.group_id }),
  );

  app.post(
    '/api/group/members/protected',
    { schema: { body: ZSetProtectedIdentityRequestSchema, response: { 200: ZSetProtectedIdentityResponseSchema } } },
    async (request) => {
      const result = await setProtectedIdentity(app.db, {
        actorUserId: currentUser(request).id,
        groupId: request.body.group_id,
        membershipId: request.body.membership_id,
        protected: request.body.protected,
      });
      return { ok: true as const, ...result };
    },
  );
}
