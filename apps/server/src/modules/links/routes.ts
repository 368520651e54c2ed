import type { FastifyInstance } from 'fastify';
import { routeRateLimit } from '../../lib/rate-limits.js';
import { recordLinkClick } from './record-link-click.js';
import { INACTIVE_LINK_CSP, inactiveLinkPage, UNKNOWN_LINK_CSP, unknownLinkPage } from './unknown-link-page.js';

/** Personal links `{PUBLIC_URL}/s/{code}` (DESIGN §3): count the visit, send the buyer on to the shop. */
export async function linkRoutes(app: FastifyInstance) {
  app.get<{ Params: { code: string } }>('/s/:code', { config: routeRateLimit(app, 120, '1 minute') }, async (request, reply) => {
    // Link previews (chat apps, SMS) often ask with HEAD: forward them, but count only real visits.
    const visit = await recordLinkClick(app.db, request.params.code, { count: request.method !== 'HEAD' });
    if (visit === null) {
      return reply
        .status(404)
        .header('content-security-policy', UNKNOWN_LINK_CSP)
        .type('text/html; charset=utf-8')
        .send(unknownLinkPage(app.config.shopUrl));
    }
    if (visit.awaitingGuardianConsent) {
      // Not active yet (issue 22): said kindly, and no redirect that would carry the code to the shop.
      return reply.header('content-security-policy', INACTIVE_LINK_CSP).type('text/html; charset=utf-8').send(inactiveLinkPage());
    }
    return reply.redirect(`${app.config.shopUrl}/?ref=${encodeURIComponent(visit.code)}`, 302);
  });
}
