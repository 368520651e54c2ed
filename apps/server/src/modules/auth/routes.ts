import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZForgotPasswordRequestSchema,
  ZLoginRequestSchema,
  ZOkResponseSchema,
  ZRegisterSellerRequestSchema,
  ZResetPasswordRequestSchema,
  ZTokenResponseSchema,
  ZVerifyResetCodeRequestSchema,
} from '@saljportalen/contract';
import { AppError } from '../../errors.js';
import { routeRateLimit } from '../../plugins/security.js';
import { requestPasswordReset, resetPassword, verifyResetCode } from './password-reset.js';
import { REFRESH_COOKIE, revokeRefreshToken, rotateRefreshToken } from './refresh-tokens.js';
import { registerSeller } from './register-seller.js';
import { clearRefreshCookie, setRefreshCookie, signAccessToken, startSession } from './session.js';
import { signIn } from './sign-in.js';

export async function authRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/auth/login',
    {
      schema: { body: ZLoginRequestSchema, response: { 200: ZTokenResponseSchema } },
      config: routeRateLimit(app, 10, '1 minute'),
    },
    async (request, reply) => {
      const user = await signIn(app.db, request.body);
      return startSession(app, reply, user.id);
    },
  );

  app.post(
    '/api/auth/register-seller',
    {
      schema: { body: ZRegisterSellerRequestSchema, response: { 200: ZTokenResponseSchema } },
      config: routeRateLimit(app, 10, '10 minutes'),
    },
    async (request, reply) => {
      const { userId } = await registerSeller(app.db, request.body);
      return startSession(app, reply, userId);
    },
  );

  app.post('/api/auth/refresh', { schema: { response: { 200: ZTokenResponseSchema } } }, async (request, reply) => {
    const presented = request.cookies[REFRESH_COOKIE];
    const rotated = presented ? await rotateRefreshToken(app.db, presented) : null;
    if (!rotated) {
      clearRefreshCookie(reply);
      throw new AppError('UNAUTHENTICATED', 'Sessionen har gått ut');
    }
    setRefreshCookie(app, reply, rotated.token);
    return { token: await signAccessToken(app, rotated.userId) };
  });

  app.post('/api/auth/logout', { schema: { response: { 200: ZOkResponseSchema } } }, async (request, reply) => {
    const presented = request.cookies[REFRESH_COOKIE];
    if (presented) await revokeRefreshToken(app.db, presented);
    clearRefreshCookie(reply);
    return { ok: true as const };
  });

  app.post(
    '/api/auth/forgot-password',
    {
      schema: { body: ZForgotPasswordRequestSchema, response: { 200: ZOkResponseSchema } },
      config: routeRateLimit(app, 5, '15 minutes'),
    },
    async (request) => {
      // The mail is sent after the answer, so its timing cannot tell whether the address exists.
      const { email } = request.body;
      setImmediate(() => {
        requestPasswordReset(app.db, app.mailer, { email, publicUrl: app.config.publicUrl }).catch((error: unknown) =>
          request.log.error({ err: error }, 'kunde inte skicka återställningsmejl'),
        );
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
      await resetPassword(app.db, { code: request.body.code, newPassword: request.body.new_password });
      clearRefreshCookie(reply);
      return { ok: true as const };
    },
  );
}
