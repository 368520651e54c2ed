import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZForgotPasswordRequestSchema,
  ZLoginRequestSchema,
  ZRedeemSlipRequestSchema,
  ZOkResponseSchema,
  ZRegisterSellerRequestSchema,
  ZResetPasswordRequestSchema,
  ZTokenResponseSchema,
  ZVerifyResetCodeRequestSchema,
} from '@saljportalen/contract';
import { AppError } from '../../errors.js';
import { mailFailureForLog } from '../../lib/mailer.js';
import { accountChangeMails } from './send-account-change-mail.js';
import { routeRateLimit } from '../../lib/rate-limits.js';
import { requestPasswordReset, resetPassword, verifyResetCode } from './password-reset.js';
import { endSession, endSessionOfRefreshToken, REFRESH_COOKIE, rotateRefreshToken } from './refresh-tokens.js';
import { registerSeller } from './register-seller.js';
import { clearRefreshCookie, recordSignIn, setRefreshCookie, signAccessToken, startSession } from './session.js';
import { signIn } from './sign-in.js';
import { redeemSlipCode } from './redeem-slip-code.js';
import { guardianInviteLimits } from './invite-limits.js';
import { passwordAttempts, resetMailLimit } from './sign-in-limits.js';

export async function authRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  // Sign-in and registration (which checks the password of an address that has an account) share
  // one count of wrong passwords per account and address (decision 012).
  const passwordAttempt = passwordAttempts(app);
  const withInviteLimits = guardianInviteLimits(app);

  app.post(
    '/api/auth/login',
    { schema: { body: ZLoginRequestSchema, response: { 200: ZTokenResponseSchema } } },
    async (request, reply) => {
      const user = await passwordAttempt(request, reply, request.body.email, () => signIn(app.db, request.body));
      return startSession(app, reply, user.id);
    },
  );

  // A class-list pupil's first sign-in with the printed slip (issue 31): a short code, so few tries.
  app.post(
    '/api/auth/slip',
    {
      schema: { body: ZRedeemSlipRequestSchema, response: { 200: ZTokenResponseSchema } },
      config: routeRateLimit(app, 10, '15 minutes'),
    },
    async (request, reply) => {
      const { userId } = await redeemSlipCode(app.db, {
        username: request.body.username,
        code: request.body.code,
        newPassword: request.body.new_password,
      });
      return startSession(app, reply, userId);
    },
  );

  app.post(
    '/api/auth/register-seller',
    {
      schema: { body: ZRegisterSellerRequestSchema, response: { 200: ZTokenResponseSchema } },
      // A whole class registers in one lesson from one address.
      config: routeRateLimit(app, 100, '1 hour'),
    },
    async (request, reply) => {
      // A pupil under 13 whose guardian's address or group has had too many consent mails is
      // refused whole (429), not stored waiting for a mail never sent (decision 051).
      const { userId, guardianInvited } = await withInviteLimits(reply, (countInvite) =>
        passwordAttempt(request, reply, request.body.email, () =>
          registerSeller(app.db, request.body, { publicUrl: app.config.publicUrl, countInvite }),
        ),
      );
      if (guardianInvited) await app.mailOutbox.deliverSoon();
      return startSession(app, reply, userId);
    },
  );

  app.post('/api/auth/refresh', { schema: { response: { 200: ZTokenResponseSchema } } }, async (request, reply) => {
    const presented = request.cookies[REFRESH_COOKIE];
    const rotated = presented ? await rotateRefreshToken(app.db, presented, app.refreshSuccessor) : null;
    if (!rotated) {
      clearRefreshCookie(reply);
      throw new AppError('UNAUTHENTICATED', 'Sessionen har gått ut');
    }
    setRefreshCookie(app, reply, rotated.token);
    await recordSignIn(app.db, rotated.userId, { atMostDaily: true });
    return { token: await signAccessToken(app, rotated.userId, rotated.familyId) };
  });

  app.post('/api/auth/logout', { schema: { response: { 200: ZOkResponseSchema } } }, async (request, reply) => {
    // Ends this session only, the access tokens it issued included: other devices stay signed in.
    const presented = request.cookies[REFRESH_COOKIE];
    if (presented) await endSessionOfRefreshToken(app.db, presented);
    const bearer = request.headers.authorization?.startsWith('Bearer ') ? request.headers.authorization.slice(7).trim() : undefined;
    const claims = bearer ? app.accessTokens.verify(bearer) : null;
    if (claims?.sessionId) await endSession(app.db, { userId: claims.userId, familyId: claims.sessionId });
    clearRefreshCookie(reply);
    return { ok: true as const };
  });

  app.post(
    '/api/auth/forgot-password',
    {
      schema: { body: ZForgotPasswordRequestSchema, response: { 200: ZOkResponseSchema } },
      config: routeRateLimit(app, 20, '15 minutes'),
      // Nobody's inbox can be flooded with reset mails, and nobody can keep the owner from resetting.
      preHandler: resetMailLimit(app),
    },
    async (request) => {
      // The mail is sent after the answer, so its timing cannot tell whether the address exists.
      const { email } = request.body;
      setImmediate(() => {
        requestPasswordReset(app.db, { email, publicUrl: app.config.publicUrl })
          .then((queued) => (queued ? app.mailOutbox.deliverSoon() : undefined))
          .catch((error: unknown) => request.log.error(mailFailureForLog(error), 'kunde inte lägga återställningsmejlet i e-postkön'));
      });
      return { ok: true as const };
    },
  );

  app.post(
    '/api/auth/reset-password/verify',
    {
      schema: { body: ZVerifyResetCodeRequestSchema, response: { 200: ZOkResponseSchema } },
      config: routeRateLimit(app, 30, '15 minutes'),
    },
    async (request) => {
      await verifyResetCode(app.db, request.body.code);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/auth/reset-password',
    { schema: { body: ZResetPasswordRequestSchema, response: { 200: ZOkResponseSchema } }, config: routeRateLimit(app, 10, '15 minutes') },
    async (request, reply) => {
      await resetPassword(app.db, {
        code: request.body.code,
        newPassword: request.body.new_password,
        notices: (user) => accountChangeMails({ change: { kind: 'password_reset' }, ...user, publicUrl: app.config.publicUrl }),
      });
      clearRefreshCookie(reply);
      await app.mailOutbox.deliverSoon();
      return { ok: true as const };
    },
  );
}
