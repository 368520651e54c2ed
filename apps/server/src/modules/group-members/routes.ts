import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZGroupMembersQuerySchema,
  ZGroupMembersResponseSchema,
  ZRosterRequestSchema,
  ZRosterResponseSchema,
  ZSignInSlipsRequestSchema,
  ZSetProtectedIdentityRequestSchema,
  ZSetProtectedIdentityResponseSchema,
} from '@saljportalen/contract';
import { currentUser } from '../../lib/current-user.js';
import { listClassMembers } from './list-class-members.js';
import { setProtectedIdentity } from './set-protected-identity.js';
import { importRoster } from './import-roster.js';
import { createSignInSlips } from './create-sign-in-slips.js';
import { sendFile } from '../audit/personal-data-exports.js';

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

  // The class list (issue 31): each row's outcome; the consent mails go at once.
  app.post('/api/group/roster', { schema: { body: ZRosterRequestSchema, response: { 200: ZRosterResponseSchema } } }, async (request) => {
    const { response, guardiansInvited } = await importRoster(app.db, {
      actorUserId: currentUser(request).id,
      request: request.body,
      publicUrl: app.config.publicUrl,
    });
    if (guardiansInvited > 0) await app.mailOutbox.deliverSoon();
    return response;
  });

  // New sign-in slips (a PDF) for the pupils without a guardian's address; older unused codes stop working.
  app.post(
    '/api/group/roster/slips',
    {
      schema: { body: ZSignInSlipsRequestSchema },
      config: {
        personalDataExport: {
          action: 'group.sign_in_slips',
          targetType: 'group',
          targetId: (request) => (request.body as { group_id: number }).group_id,
        },
      },
    },
    async (request, reply) => {
      const { pdf, fileName } = await createSignInSlips(app.db, {
        actorUserId: currentUser(request).id,
        groupId: request.body.group_id,
        publicUrl: app.config.publicUrl,
      });
      return sendFile(reply, { type: 'application/pdf', fileName, body: pdf });
    },
  );
}
