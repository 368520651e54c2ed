import type { FastifyInstance } from 'fastify';

// Routes of personal links (issue 6).
export async function linkRoutes(_app: FastifyInstance) {}
