import { z } from 'zod';

/** GET /api/health: the process is alive (the database is not asked). */
export const ZHealthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
});
export type THealthResponse = z.infer<typeof ZHealthResponseSchema>;

/** GET /api/ready: the database answers and has every migration this server knows; otherwise a 503 error. */
export const ZReadyResponseSchema = z.object({
  status: z.literal('ready'),
  database: z.enum(['pglite', 'postgres']),
  migrations: z.number().int(),
});
export type TReadyResponse = z.infer<typeof ZReadyResponseSchema>;
