import type { FastifyInstance } from 'fastify';

// Routes of Shopify webhooks (issue 6).
export async function shopifyRoutes(_app: FastifyInstance) {}
