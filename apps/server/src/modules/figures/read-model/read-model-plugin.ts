import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ReadModel } from './read-model.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The seller calls' read model (modules/figures/read-model): loaded at start, kept exact by the change feed. */
    readModel: ReadModel;
  }
}

/** Loads the read model with the server (the server is ready once it is exact) and stops it when the server closes. */
export const readModelPlugin = fp(
  async (app: FastifyInstance) => {
    const model = new ReadModel({ db: app.db, feed: app.changeFeed, writes: app.database.writes, log: app.log });
    await model.start();
    app.decorate('readModel', model);
    app.addHook('onClose', async () => model.stop());
  },
  { name: 'read-model', dependencies: ['core', 'change-feed'] },
);
