import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ChangeFeed } from '../db/change-feed.js';
import type { Db } from '../db/client.js';

/**
 * The data version (decision 057): a write's answer carries the version after it, and a read that
 * presents it, on whichever worker it lands, is answered by a read model that holds it.
 */
export const DATA_VERSION_HEADER = 'x-data-version';

/** How long a write's answer waits for its version; without one (the listening connection is away) it goes as it is. */
const VERSION_WAIT_MS = 1_000;

const READS = new Set(['GET', 'HEAD']);

/** A presented version: digits only, a safe integer; anything else is not one. */
function presentedVersion(header: string | string[] | undefined): number | undefined {
  if (typeof header !== 'string' || !/^\d{1,16}$/.test(header)) return undefined;
  const version = Number(header);
  return Number.isSafeInteger(version) ? version : undefined;
}

/** What the read model is made of; `app.readModel`'s type is the model's own (modules/figures/read-model). */
export interface ReadModelParts {
  db: Db;
  feed: ChangeFeed;
  log: FastifyBaseLogger;
}

/**
 * Loads the read model with the server (the server is ready once it is current) and stops it when
 * the server closes; puts the data version on write answers and waits for a read's. The model is
 * made by `create` (app.ts): plugins import no module.
 */
export const readModelPlugin = fp(
  async (app: FastifyInstance, options: { create(parts: ReadModelParts): FastifyInstance['readModel'] }) => {
    const model = options.create({ db: app.db, feed: app.changeFeed, log: app.log });
    await model.start();
    app.decorate('readModel', model);

    // Any read, not only the seller calls: a client does not know which of its reads the model answers.
    app.addHook('onRequest', (request, _reply, done) => {
      if (!READS.has(request.method)) return done();
      const version = presentedVersion(request.headers[DATA_VERSION_HEADER]);
      const waiting = version === undefined ? undefined : model.current(version);
      if (waiting) waiting.then(() => done(), done);
      else done();
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (READS.has(request.method) || request.method === 'OPTIONS' || reply.statusCode >= 400) return payload;
      let timer: NodeJS.Timeout | undefined;
      const version = await Promise.race([
        app.changeFeed.version().catch(() => undefined),
        new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), VERSION_WAIT_MS))),
      ]);
      clearTimeout(timer);
      if (version !== undefined) {
        model.wrote(version);
        reply.header(DATA_VERSION_HEADER, String(version));
      }
      return payload;
    });

    app.addHook('onClose', async () => model.stop());
  },
  { name: 'read-model', dependencies: ['core', 'change-feed'] },
);
