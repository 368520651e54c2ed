import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZPrivacyInfoResponseSchema } from '@saljportalen/contract';

/** The public privacy page's data (`/integritet`): whom to contact, from PRIVACY_CONTACT. Anyone may ask. */
export async function privacyInfoRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get('/api/privacy', { schema: { response: { 200: ZPrivacyInfoResponseSchema } } }, async () => ({
    contact: app.config.privacyContact,
  }));
}
