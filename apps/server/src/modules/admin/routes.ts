import type { FastifyInstance } from 'fastify';

// Routes of the superadmin area (issue 4).
export async function adminRoutes(_app: FastifyInstance) {}
