import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { reduceStoredPayloads } from '../modules/shopify/reduce-stored-payloads.js';

/**
 * At every start, before the server listens: what a migration would do if SQL could say it (decision
 * 054). The reduction is an allow-list walk with Shopify's 64-bit ids, the cart attribute `ref` read
 * as the ledger reads it and the landing page's `?ref=` parsed as a URL; a second version of it in
 * SQL would drift from the one that reduces at receipt. So it runs here, in JavaScript, once per
 * event: a buyer's data from before the upgrade is gone before the first request is served, not
 * at the first retention run (which may be a day away, or in no process at all).
 */
export const storedPayloadsPlugin = fp(
  async (app: FastifyInstance) => {
    const reduced = await reduceStoredPayloads(app.db);
    if (reduced > 0) app.log.info({ reduced }, 'lagrade Shopify-händelser rensade från köparens uppgifter (beslut 035, 054)');
  },
  { name: 'stored-payloads' },
);
