import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZBuyerGreetingRequestSchema,
  ZBuyerGreetingResponseSchema,
  ZClassLinkQuerySchema,
  ZClassLinkResponseSchema,
} from '@saljportalen/contract';
import { currentUser } from '../../lib/current-user.js';
import { sendFile } from '../audit/personal-data-exports.js';
import { loadClassLink, setBuyerGreeting } from './class-link.js';
import { renderPosterPdf } from './render-poster-pdf.js';

/**
 * The class link (issue 32): its address and the teacher's text for the buyer pages, and the class
 * poster. The buyer pages themselves are public (modules/links). Each call here is the group's
 * admin's, or a superadmin's.
 */
export async function classLinkRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/group/class-link',
    { schema: { querystring: ZClassLinkQuerySchema, response: { 200: ZClassLinkResponseSchema } } },
    async (request) => {
      const { class_link, buyer_greeting } = await loadClassLink(app.db, {
        actorUserId: currentUser(request).id,
        groupId: request.query.group_id,
        publicUrl: app.config.publicUrl,
      });
      return { class_link, buyer_greeting };
    },
  );

  app.post(
    '/api/group/buyer-greeting',
    { schema: { body: ZBuyerGreetingRequestSchema, response: { 200: ZBuyerGreetingResponseSchema } } },
    async (request) => ({
      ok: true as const,
      buyer_greeting: await setBuyerGreeting(app.db, {
        actorUserId: currentUser(request).id,
        groupId: request.body.group_id,
        text: request.body.text,
      }),
    }),
  );

  app.get(
    '/api/group/poster.pdf',
    {
      schema: { querystring: ZClassLinkQuerySchema },
      // The poster names the class and no person; every file the server hands out is still audited.
      config: {
        personalDataExport: {
          action: 'group.poster_download',
          targetType: 'group',
          targetId: (request) => (request.query as { group_id: number }).group_id,
        },
      },
    },
    async (request, reply) => {
      const link = await loadClassLink(app.db, {
        actorUserId: currentUser(request).id,
        groupId: request.query.group_id,
        publicUrl: app.config.publicUrl,
      });
      const pdf = await renderPosterPdf({ groupName: link.groupName, goal: link.goal, classLink: link.class_link });
      return sendFile(reply, { type: 'application/pdf', fileName: 'klassaffisch.pdf', body: pdf });
    },
  );
}
