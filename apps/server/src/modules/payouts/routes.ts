import type { FastifyInstance } from 'fastify';

// Routes of payouts (issue 5).
export async function payoutsRoutes(_app: FastifyInstance) {}
