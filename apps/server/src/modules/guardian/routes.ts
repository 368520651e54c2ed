import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZGroupTotalsResponseSchema,
  ZGuardianChildParamsSchema,
  ZGuardianChildPasswordRequestSchema,
  ZGuardianChildrenResponseSchema,
  ZGuardianConsentQuerySchema,
  ZGuardianConsentRequestSchema,
  ZGuardianConsentResponseSchema,
  ZGuardianConsentResultSchema,
  ZLeaderboardResponseSchema,
  ZMeSummaryResponseSchema,
  ZOkResponseSchema,
  ZPublicNameRequestSchema,
  ZPublicNameResponseSchema,
} from '@saljportalen/contract';
import { AppError, fieldError } from '../../errors.js';
import { sendCompressed } from '../../lib/compressed-body.js';
import { currentUser } from '../../lib/current-user.js';
import { routeRateLimit } from '../../lib/rate-limits.js';
import { startSession } from '../auth/session.js';
import { signIn } from '../auth/sign-in.js';
import { passwordAttempts } from '../auth/sign-in-limits.js';
import { createSellerCatalog } from '../catalog/create-seller-catalog.js';
import { getGroupLeaderboard } from '../dashboard/get-group-leaderboard.js';
import { loadGroupTotals } from '../dashboard/get-group-totals.js';
import { loadSellerSummary } from '../dashboard/get-seller-summary.js';
import { listGuardianChildren, loadChildView, withdrawGuardianConsent } from './guardian-children.js';
import { loadPublicName } from '../account/set-public-name.js';
import { approveGuardianConsent, declineGuardianConsent, loadGuardianConsent, type GuardianAccount } from './guardian-consent.js';
import { setChildPublicName } from './set-child-public-name.js';
import { setChildPassword } from './set-child-password.js';
import { sendFile } from '../audit/personal-data-exports.js';

/**
 * A guardian's consent to an under-13 seller (public, with the mailed code) and the guardian's
 * read-only view of their approved children (issue 22). Every child call is scoped by an
 * approved guardian link of the signed-in user, and answers with the very use cases of the
 * child's own dashboard and catalogue, so the shapes (and whatever they gain) are the same.
 */
export async function guardianRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const passwordAttempt = passwordAttempts(app);

  app.get(
    '/api/guardian/consent',
    {
      schema: { querystring: ZGuardianConsentQuerySchema, response: { 200: ZGuardianConsentResponseSchema } },
      config: routeRateLimit(app, 30, '15 minutes'),
    },
    async (request) => loadGuardianConsent(app.db, request.query.code),
  );

  app.post(
    '/api/guardian/consent',
    {
      schema: { body: ZGuardianConsentRequestSchema, response: { 200: ZGuardianConsentResultSchema } },
      config: routeRateLimit(app, 20, '15 minutes'),
    },
    async (request, reply) => {
      const { body } = request;
      if (body.decision === 'decline') {
        await declineGuardianConsent(app.db, { code: body.code });
        // The child's mail went with the erasure; its copies in the outbox folder go now.
        await app.mailOutbox.forgetFiles();
        return { decision: 'decline' as const, ok: true as const };
      }
      let account: GuardianAccount;
      if (body.account === 'existing') {
        // An existing account's password counts as a sign-in's does (decision 012).
        // The address is the invited one, shown and not typed: a refusal is about the password.
        const user = await passwordAttempt(request, reply, body.email!, () =>
          signIn(app.db, { email: body.email!, password: body.password! }).catch((error: unknown) => {
            throw error instanceof AppError && error.code === 'INVALID_CREDENTIALS'
              ? fieldError(error.code, 'password', error.message)
              : error;
          }),
        );
        account = { kind: 'existing', userId: user.id };
      } else {
        account = { kind: 'new', fullName: body.full_name!, email: body.email!, password: body.password! };
      }
      const { guardianUserId } = await approveGuardianConsent(app.db, {
        code: body.code,
        account,
        publicUrl: app.config.publicUrl,
        child: { password: body.child_password, publicName: body.child_public_name, alias: body.child_alias },
      });
      const { token } = await startSession(app, reply, guardianUserId);
      return { decision: 'approve' as const, token };
    },
  );

  await app.register(async (scope) => {
    const children = scope.withTypeProvider<ZodTypeProvider>();
    children.addHook('onRequest', app.authenticate);
    const childOf = (request: { params: { id: number } }, userId: number) =>
      loadChildView(app.db, app.readModel, userId, request.params.id);

    children.get('/api/guardian/children', { schema: { response: { 200: ZGuardianChildrenResponseSchema } } }, async (request) =>
      listGuardianChildren(app.db, currentUser(request).id),
    );

    children.get(
      '/api/guardian/children/:id/summary',
      { schema: { params: ZGuardianChildParamsSchema, response: { 200: ZMeSummaryResponseSchema } } },
      async (request) =>
        loadSellerSummary(app.db, (await childOf(request, currentUser(request).id)).view, {
          publicUrl: app.config.publicUrl,
          holdDays: app.config.payoutHoldDays,
        }),
    );

    children.get(
      '/api/guardian/children/:id/totals',
      { schema: { params: ZGuardianChildParamsSchema, response: { 200: ZGroupTotalsResponseSchema } } },
      async (request) =>
        loadGroupTotals(app.db, app.readModel, (await childOf(request, currentUser(request).id)).view, app.config.payoutHoldDays),
    );

    // The leaderboard as the child's group shows it to the child (the child's dashboard's answer).
    scope.get<{ Params: { id: number } }>(
      '/api/guardian/children/:id/leaderboard',
      { schema: { params: ZGuardianChildParamsSchema, response: { 200: ZLeaderboardResponseSchema } } },
      async (request, reply) => {
        const { view } = await childOf(request, currentUser(request).id);
        return sendCompressed(request, reply.type('application/json; charset=utf-8'), getGroupLeaderboard(app.readModel, view));
      },
    );

    children.get(
      '/api/guardian/children/:id/catalog.pdf',
      {
        schema: { params: ZGuardianChildParamsSchema },
        config: {
          personalDataExport: {
            action: 'catalog.download',
            targetType: 'user',
            targetId: (request) => (request.params as { id: number }).id,
          },
        },
      },
      async (request, reply) => {
        const { child } = await childOf(request, currentUser(request).id);
        const { pdf, fileName } = await createSellerCatalog(app.db, {
          user: child,
          publicUrl: app.config.publicUrl,
          dataDir: app.config.dataDir,
          log: request.log,
        });
        return sendFile(reply, { type: 'application/pdf', fileName, body: pdf });
      },
    );

    children.post(
      '/api/guardian/children/:id/withdraw',
      { schema: { params: ZGuardianChildParamsSchema, response: { 200: ZOkResponseSchema } } },
      async (request) => {
        await withdrawGuardianConsent(app.db, currentUser(request).id, request.params.id);
        await app.mailOutbox.forgetFiles();
        return { ok: true as const };
      },
    );

    // The approved guardian chooses how buyers see a child under 13 (issue 22 point 7): the
    // choice as it stands, for the guardian's form, and the change.
    children.get(
      '/api/guardian/children/:id/public-name',
      { schema: { params: ZGuardianChildParamsSchema, response: { 200: ZPublicNameResponseSchema } } },
      async (request) => {
        const { child } = await childOf(request, currentUser(request).id);
        return loadPublicName(app.db, child.id);
      },
    );

    // A class-list pupil has no address to reset a password from: the guardian sets it (issue 31).
    children.post(
      '/api/guardian/children/:id/password',
      {
        schema: { params: ZGuardianChildParamsSchema, body: ZGuardianChildPasswordRequestSchema, response: { 200: ZOkResponseSchema } },
        config: routeRateLimit(app, 10, '15 minutes'),
      },
      async (request) => {
        await setChildPassword(app.db, {
          guardianUserId: currentUser(request).id,
          childUserId: request.params.id,
          newPassword: request.body.new_password,
        });
        return { ok: true as const };
      },
    );

    children.post(
      '/api/guardian/children/:id/public-name',
      { schema: { params: ZGuardianChildParamsSchema, body: ZPublicNameRequestSchema, response: { 200: ZPublicNameResponseSchema } } },
      async (request) =>
        setChildPublicName(app.db, {
          guardianUserId: currentUser(request).id,
          childUserId: request.params.id,
          choice: request.body,
        }),
    );
  });
}
