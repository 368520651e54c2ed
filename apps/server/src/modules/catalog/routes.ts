import type { FastifyInstance } from 'fastify';

// Routes of the catalogue PDF (issue 3).
export async function catalogRoutes(_app: FastifyInstance) {}
