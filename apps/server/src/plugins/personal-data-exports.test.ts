import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorsPlugin } from './errors.js';
import { personalDataExportsPlugin } from './personal-data-exports.js';

/** A server with one file route that declares its export and one that does not, and a database that records inserts. */
async function serverWithFileRoutes() {
  const inserted: unknown[] = [];
  const app = Fastify();
  app.decorate('db', { insert: () => ({ values: async (row: unknown) => void inserted.push(row) }) } as never);
  await app.register(errorsPlugin);
  await app.register(personalDataExportsPlugin);
  const sendFile = (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('text/csv').header('content-disposition', 'attachment; filename="elever.csv"').send('namn;belopp\nNoah Svensson;407\n');
  app.get(
    '/deklarerad/:id',
    {
      config: {
        personalDataExport: { action: 'test.export', targetType: 'group', targetId: (request) => (request.params as { id: string }).id },
      },
    },
    sendFile,
  );
  app.get('/odeklarerad', sendFile);
  app.get('/json', async () => ({ namn: 'Noah Svensson' }));
  return { app, inserted };
}

describe('personal data exports (issue 28)', () => {
  it('refuses a file from a route that does not say what it records: 500, no file, no headers of one', async () => {
    const { app, inserted } = await serverWithFileRoutes();
    const response = await app.inject({ method: 'GET', url: '/odeklarerad' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('Noah');
    expect(response.headers['content-disposition']).toBeUndefined();
    expect(response.json()).toMatchObject({ error: { code: 'INTERNAL' } });
    expect(inserted).toEqual([]);
  });

  it('records a declared export as it is sent, and leaves answers that are no file alone', async () => {
    const { app, inserted } = await serverWithFileRoutes();
    const response = await app.inject({ method: 'GET', url: '/deklarerad/12' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Noah');
    expect(inserted).toEqual([
      expect.objectContaining({ actorUserId: null, action: 'test.export', targetType: 'group', targetId: '12', details: null }),
    ]);
    expect((await app.inject({ method: 'GET', url: '/json' })).statusCode).toBe(200);
    expect(inserted).toHaveLength(1);
  });
});
