import type { FastifyInstance, FastifyReply } from 'fastify';
import { routeRateLimit } from '../../lib/rate-limits.js';
import { BUYER_PAGE_CSP, buyerPageHtml } from './buyer-pages.js';
import { loadClassLinkPage, loadPersonalLinkPage, type BuyerPage } from './load-buyer-page.js';

/**
 * The buyers' links (DESIGN D19, issue 32): a personal link `{PUBLIC_URL}/s/{code}` and a class link
 * `{PUBLIC_URL}/k/{code}` answer a page before the shop, whose one button carries the code to the
 * shop as `?ref=` (the attribution as before), or a kind page that leads nowhere.
 */
export async function linkRoutes(app: FastifyInstance) {
  const send = (reply: FastifyReply, page: BuyerPage) => {
    const { status, html } = buyerPageHtml(page, app.config.shopUrl);
    return (
      reply
        .status(status)
        .header('content-security-policy', BUYER_PAGE_CSP)
        // The shop learns the code from the button's address and nothing from where the buyer came.
        .header('referrer-policy', 'no-referrer')
        // The page changes with the class's figures and days: never kept by a proxy or the browser.
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex')
        .type('text/html; charset=utf-8')
        .send(html)
    );
  };

  const limit = { config: routeRateLimit(app, 120, '1 minute') };
  app.get<{ Params: { code: string } }>('/s/:code', limit, async (request, reply) =>
    // Link previews (chat apps, SMS) often ask with HEAD: answered, but only real visits are counted.
    send(reply, await loadPersonalLinkPage(app.db, request.params.code, { count: request.method !== 'HEAD' })),
  );
  app.get<{ Params: { code: string } }>('/k/:code', limit, async (request, reply) =>
    send(reply, await loadClassLinkPage(app.db, request.params.code)),
  );
}
