import type { FastifyInstance } from 'fastify';

// Routes of the seller capability (issue 3).
export async function sellerRoutes(_app: FastifyInstance) {}
