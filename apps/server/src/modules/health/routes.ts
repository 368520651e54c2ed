import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';

export async function healthRoutes(app: FastifyInstance) {
  app.get('/api/health', async (_request, reply) => {
    try {
      await app.db.execute(sql`select 1`);
      return { status: 'ok', database: app.database.kind };
    } catch (error) {
      app.log.error({ err: error }, 'databasen svarar inte');
      return reply.status(503).send({ error: { code: 'UNAVAILABLE', message: 'Databasen svarar inte' } });
    }
  });
}
