import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAdminSellerParamsSchema,
  ZDeleteAccountRequestSchema,
  ZOkResponseSchema,
  ZPrivacyInfoResponseSchema,
} from '@saljportalen/contract';
import { AppError } from '../../errors.js';
import { currentUser } from '../../lib/current-user.js';
import { routeRateLimit, swedishDuration } from '../../lib/rate-limits.js';
import { clearRefreshCookie } from '../auth/session.js';
import { deleteOwnAccount } from './delete-own-account.js';
import { eraseAccount } from './erase-account.js';
import { exportAccount, exportFileName } from './export-account.js';
import { sendFile } from '../audit/personal-data-exports.js';

/** How often one person may download their data: plenty for a person, too few to scrape with a stolen session. */
const EXPORTS_PER_HOUR = 5;

/**
 * The export's limit counts per person, not per address (a class shares one school address):
 * read after authentication, so the key is the signed-in user.
 */
function perUserExportLimit(app: FastifyInstance): FastifyContextConfig {
  if (!app.config.rateLimits) return { rateLimit: false };
  return {
    rateLimit: {
      max: EXPORTS_PER_HOUR,
      timeWindow: '1 hour',
      hook: 'preHandler',
      keyGenerator: (request) => `account-export|${currentUser(request).id}`,
      errorResponseBuilder: (_request, context) =>
        new AppError(
          'RATE_LIMITED',
          `Du har laddat ner dina uppgifter många gånger den senaste timmen. Vänta ${swedishDuration(context.ttl)} och försök igen.`,
        ),
    },
  };
}

/** The person's own data (issue 22): 'Ladda ner mina uppgifter' and 'Radera mitt konto'. */
export async function privacyRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/account/export',
    {
      config: {
        ...perUserExportLimit(app),
        personalDataExport: { action: 'account.export', targetType: 'user', targetId: (request) => currentUser(request).id },
      },
    },
    async (request, reply) => {
      const now = new Date();
      const data = await exportAccount(app.db, currentUser(request).id, { publicUrl: app.config.publicUrl, now });
      return sendFile(reply, {
        type: 'application/json; charset=utf-8',
        fileName: exportFileName(now),
        body: JSON.stringify(data, null, 2),
      });
    },
  );

  app.post(
    '/api/account/delete',
    {
      schema: { body: ZDeleteAccountRequestSchema, response: { 200: ZOkResponseSchema } },
      config: routeRateLimit(app, 10, '15 minutes'),
    },
    async (request, reply) => {
      await deleteOwnAccount(app.db, currentUser(request).id, request.body.password);
      // The person's mail rows went with the erasure; their copies in the outbox folder go now.
      await app.mailOutbox.forgetFiles();
      // The token version moved and every refresh token is gone: the cookie is dead anyway.
      clearRefreshCookie(reply);
      return { ok: true as const };
    },
  );
}

/** The public privacy page's data (`/integritet`): whom to contact, from PRIVACY_CONTACT. Anyone may ask. */
export async function privacyInfoRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get('/api/privacy', { schema: { response: { 200: ZPrivacyInfoResponseSchema } } }, async () => ({
    contact: app.config.privacyContact,
  }));
}

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
