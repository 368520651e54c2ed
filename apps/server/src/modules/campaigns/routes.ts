import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZCampaignRequestSchema,
  ZCampaignResponseSchema,
  ZClosingNoteRequestSchema,
  ZClosingNoteResponseSchema,
  ZCloneGroupRequestSchema,
  ZCloneGroupResponseSchema,
} from '@saljportalen/contract';
import { currentUser } from '../../lib/current-user.js';
import { cloneGroup } from './clone-group.js';
import { campaignCloseOutJob } from './close-out.js';
import { writeClosingNote } from './closing-note.js';
import { setCampaign } from './set-campaign.js';

/**
 * A class's campaign (issue 31): its days, its close-out when it ends, what the money became, and
 * next term's group. Each call is the group's admin's, or a superadmin's.
 */
export async function campaignRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.scheduledJobs.add(campaignCloseOutJob({ publicUrl: app.config.publicUrl, deliverSoon: () => app.mailOutbox.deliverSoon() }));
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/api/group/campaign',
    { schema: { body: ZCampaignRequestSchema, response: { 200: ZCampaignResponseSchema } } },
    async (request) => ({
      ok: true as const,
      campaign: await setCampaign(app.db, {
        actorUserId: currentUser(request).id,
        groupId: request.body.group_id,
        startsOn: request.body.starts_on,
        endsOn: request.body.ends_on,
      }),
    }),
  );

  app.post(
    '/api/group/closing-note',
    { schema: { body: ZClosingNoteRequestSchema, response: { 200: ZClosingNoteResponseSchema } } },
    async (request) => {
      const { closingNote, mailed } = await writeClosingNote(app.db, {
        actorUserId: currentUser(request).id,
        groupId: request.body.group_id,
        text: request.body.text,
        publicUrl: app.config.publicUrl,
      });
      if (mailed > 0) await app.mailOutbox.deliverSoon();
      return { ok: true as const, closing_note: closingNote, mailed };
    },
  );

  app.post(
    '/api/group/clone',
    { schema: { body: ZCloneGroupRequestSchema, response: { 200: ZCloneGroupResponseSchema } } },
    async (request) =>
      cloneGroup(app.db, {
        actorUserId: currentUser(request).id,
        groupId: request.body.group_id,
        name: request.body.name,
        membershipIds: request.body.membership_ids,
      }),
  );
}
