import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startChangeFeed, type ChangeFeed } from '../db/change-feed.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database's change feed of figures (db/change-feed.ts): subscribe to keep anything live. */
    changeFeed: ChangeFeed;
  }
}

/** Starts listening to the database's change feed with the server, and stops when it closes. */
export const changeFeedPlugin = fp(
  async (app: FastifyInstance) => {
    const feed = await startChangeFeed(app.database, app.log);
    app.decorate('changeFeed', feed);
    app.addHook('onClose', async () => feed.stop());
  },
  { name: 'change-feed', dependencies: ['core'] },
);
