import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAddGroupUserRequestSchema,
  ZAddGroupUserResponseSchema,
  ZAdminGroupDetailQuerySchema,
  ZAdminGroupDetailResponseSchema,
  ZAdminGroupListQuerySchema,
  ZAdminGroupListResponseSchema,
  ZAdminGroupMembersResponseSchema,
  ZAdminGroupOptionsResponseSchema,
  ZAdminGroupParamsSchema,
  ZAdminGroupRecordResponseSchema,
  ZArchiveGroupRequestSchema,
  ZCreateGroupRequestSchema,
  ZCreateGroupResponseSchema,
  ZGroupChangeResponseSchema,
  ZRenameGroupRequestSchema,
  ZSalesPerDayResponseSchema,
  ZUpdateGroupRequestSchema,
} from '@saljportalen/contract';
import { currentUser } from '../../lib/current-user.js';
import { addUserToGroup } from './add-user-to-group.js';
import { createGroup } from './create-group.js';
import { exportGroupCsv } from './export-group-csv.js';
import { listGroups } from '../figures/group-rows.js';
import { groupSalesPerDay } from '../figures/sales-over-time.js';
import { findGroupRecord, groupNotFound } from './group-queries.js';
import { listGroupMembers } from './list-group-members.js';
import { listGroupOptions } from './list-group-options.js';
import { loadGroupDetail } from './load-group-detail.js';
import { updateGroup } from './update-group.js';
import { sendFile } from '../audit/personal-data-exports.js';

/**
 * The superadmin's group calls of spec §7 (registered by adminRoutes, behind its guard). Both
 * path spellings are the spec's: `/groups/…` for the list, creation, lookup and adding users,
 * `/group/{id}…` for the detail and its changes.
 */
export async function groupRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const params = ZAdminGroupParamsSchema;

  app.get(
    '/api/admin/groups',
    { schema: { querystring: ZAdminGroupListQuerySchema, response: { 200: ZAdminGroupListResponseSchema } } },
    async (request) => listGroups(app.db, request.query),
  );

  // A static path: Fastify's router matches it before `/api/admin/groups/:id`.
  app.get('/api/admin/groups/options', { schema: { response: { 200: ZAdminGroupOptionsResponseSchema } } }, async () =>
    listGroupOptions(app.db),
  );

  app.post(
    '/api/admin/groups/create',
    { schema: { body: ZCreateGroupRequestSchema, response: { 200: ZCreateGroupResponseSchema } } },
    async (request) =>
      createGroup(app.db, {
        actorUserId: currentUser(request).id,
        request: request.body,
        mailOutbox: app.mailOutbox,
        publicUrl: app.config.publicUrl,
        log: request.log,
      }),
  );

  app.get('/api/admin/groups/:id', { schema: { params, response: { 200: ZAdminGroupRecordResponseSchema } } }, async (request) => ({
    group: await findGroupRecord(app.db, request.params.id),
  }));

  app.get('/api/admin/groups/:id/members', { schema: { params, response: { 200: ZAdminGroupMembersResponseSchema } } }, async (request) =>
    listGroupMembers(app.db, request.params.id),
  );

  // Issue 20: the class's sales per day over its campaign, as the group's own members see it.
  app.get('/api/admin/groups/:id/sales-per-day', { schema: { params, response: { 200: ZSalesPerDayResponseSchema } } }, async (request) => {
    const sales = await groupSalesPerDay(app.db, request.params.id);
    if (!sales) throw groupNotFound();
    return sales;
  });

  app.post(
    '/api/admin/groups/:id/add-user',
    { schema: { params, body: ZAddGroupUserRequestSchema, response: { 200: ZAddGroupUserResponseSchema } } },
    async (request) =>
      addUserToGroup(app.db, {
        actorUserId: currentUser(request).id,
        groupId: request.params.id,
        request: request.body,
        mailOutbox: app.mailOutbox,
        publicUrl: app.config.publicUrl,
        log: request.log,
      }),
  );

  app.get(
    '/api/admin/group/:id',
    { schema: { params, querystring: ZAdminGroupDetailQuerySchema, response: { 200: ZAdminGroupDetailResponseSchema } } },
    async (request) => loadGroupDetail(app.db, request.params.id, request.query),
  );

  // Spec §7 names three routes for two changes of a group: all three are the one use case, each
  // change by its own rules, and answer alike (decision 059). The web calls the POSTs.
  app.post(
    '/api/admin/group/:id/archive',
    { schema: { params, body: ZArchiveGroupRequestSchema, response: { 200: ZGroupChangeResponseSchema } } },
    async (request) => updateGroup(app.db, { actorUserId: currentUser(request).id, groupId: request.params.id, changes: request.body }),
  );

  app.post(
    '/api/admin/group/:id/rename',
    { schema: { params, body: ZRenameGroupRequestSchema, response: { 200: ZGroupChangeResponseSchema } } },
    async (request) => updateGroup(app.db, { actorUserId: currentUser(request).id, groupId: request.params.id, changes: request.body }),
  );

  app.patch(
    '/api/admin/group/:id',
    { schema: { params, body: ZUpdateGroupRequestSchema, response: { 200: ZGroupChangeResponseSchema } } },
    async (request) => updateGroup(app.db, { actorUserId: currentUser(request).id, groupId: request.params.id, changes: request.body }),
  );

  app.get(
    '/api/admin/group/:id/export',
    {
      schema: { params },
      config: {
        personalDataExport: { action: 'group.export', targetType: 'group', targetId: (request) => (request.params as { id: number }).id },
      },
    },
    async (request, reply) => {
      const { filename, stream } = await exportGroupCsv(app.db, {
        groupId: request.params.id,
        log: request.log,
      });
      return sendFile(reply, { type: 'text/csv; charset=utf-8', fileName: filename, body: stream });
    },
  );
}
