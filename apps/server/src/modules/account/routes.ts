import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAccountGroupsResponseSchema,
  ZChangeEmailRequestSchema,
  ZChangePasswordRequestSchema,
  ZOkResponseSchema,
  ZProfileResponseSchema,
  ZPublicNameRequestSchema,
  ZPublicNameResponseSchema,
  ZSessionRenewedResponseSchema,
  ZSwitchGroupRequestSchema,
  ZUpdateNotificationsRequestSchema,
  ZUpdateNotificationsResponseSchema,
  ZUpdateProfileRequestSchema,
} from '@saljportalen/contract';
import { currentUser } from '../../lib/current-user.js';
import { routeRateLimit } from '../../lib/rate-limits.js';
import { signAccessToken } from '../auth/session.js';
import { changeEmail, changePassword, listAccountGroups, loadProfile, switchGroup, updateProfile } from './account-service.js';
import { accountChangeMails } from '../auth/send-account-change-mail.js';
import { setNotifications } from './set-notifications.js';
import { loadPublicName, setOwnPublicName } from './set-public-name.js';

export async function accountRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', app.authenticate);

  app.get('/api/account/profile', { schema: { response: { 200: ZProfileResponseSchema } } }, async (request) =>
    loadProfile(app.db, currentUser(request).id),
  );

  app.post(
    '/api/account/profile',
    { schema: { body: ZUpdateProfileRequestSchema, response: { 200: ZOkResponseSchema } } },
    async (request) => {
      await updateProfile(app.db, currentUser(request).id, { fullName: request.body.full_name, phone: request.body.phone });
      return { ok: true as const };
    },
  );

  app.post(
    '/api/account/notifications',
    { schema: { body: ZUpdateNotificationsRequestSchema, response: { 200: ZUpdateNotificationsResponseSchema } } },
    async (request) =>
      setNotifications(app.db, currentUser(request).id, {
        saleMail: request.body.sale_mail,
        weeklySummary: request.body.weekly_summary,
      }),
  );

  app.post(
    '/api/account/change-password',
    {
      schema: { body: ZChangePasswordRequestSchema, response: { 200: ZSessionRenewedResponseSchema } },
      config: routeRateLimit(app, 10, '15 minutes'),
    },
    async (request) => {
      const user = currentUser(request);
      await changePassword(app.db, user.id, {
        currentPassword: request.body.current_password,
        newPassword: request.body.new_password,
        keepSessionId: user.sessionId,
        notices: accountChangeMails({
          change: { kind: 'password_changed' },
          email: user.email,
          fullName: user.fullName,
          publicUrl: app.config.publicUrl,
        }),
      });
      await app.mailOutbox.deliverSoon();
      // Every other session has ended; this one goes on with a token of the new version.
      return { ok: true as const, token: await signAccessToken(app, user.id, user.sessionId) };
    },
  );

  app.post(
    '/api/account/change-email',
    {
      schema: { body: ZChangeEmailRequestSchema, response: { 200: ZSessionRenewedResponseSchema } },
      config: routeRateLimit(app, 10, '15 minutes'),
    },
    async (request) => {
      const user = currentUser(request);
      await changeEmail(app.db, user.id, {
        currentPassword: request.body.current_password,
        newEmail: request.body.new_email,
        keepSessionId: user.sessionId,
        notices: (change) =>
          accountChangeMails({
            change: { kind: 'email_changed', ...change },
            email: change.newEmail,
            fullName: user.fullName,
            publicUrl: app.config.publicUrl,
          }),
      });
      await app.mailOutbox.deliverSoon();
      return { ok: true as const, token: await signAccessToken(app, user.id, user.sessionId) };
    },
  );

  // How buyers see the seller (issue 22): the pupil chooses at 13 or over, the guardian below.
  app.get('/api/account/public-name', { schema: { response: { 200: ZPublicNameResponseSchema } } }, async (request) =>
    loadPublicName(app.db, currentUser(request).id),
  );

  app.post(
    '/api/account/public-name',
    { schema: { body: ZPublicNameRequestSchema, response: { 200: ZPublicNameResponseSchema } } },
    async (request) => setOwnPublicName(app.db, currentUser(request).id, request.body),
  );

  app.get('/api/account/groups', { schema: { response: { 200: ZAccountGroupsResponseSchema } } }, async (request) => {
    const user = currentUser(request);
    return { groups: await listAccountGroups(app.db, user.id, user.activeGroupId) };
  });

  app.post(
    '/api/account/switch-group',
    { schema: { body: ZSwitchGroupRequestSchema, response: { 200: ZOkResponseSchema } } },
    async (request) => {
      await switchGroup(app.db, currentUser(request).id, request.body.group_id);
      return { ok: true as const };
    },
  );
}
