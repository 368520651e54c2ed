import type { FastifyInstance } from 'fastify';
import { routeRateLimit } from '../../lib/rate-limits.js';
import { recordLinkClick } from './record-link-click.js';
import {
  campaignEndedPage,
  campaignUpcomingPage,
  INACTIVE_LINK_CSP,
  inactiveLinkPage,
  UNKNOWN_LINK_CSP,
  unknownLinkPage,
} from './unknown-link-page.js';

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
    // Not active (issue 22), not yet or no longer (issue 31): said kindly, and no redirect that
    // would carry the code to the shop, so nothing is attributed through the link.
    const page =
      visit.kind === 'awaiting_guardian_consent'
        ? inactiveLinkPage()
        : visit.kind === 'campaign_upcoming'
          ? campaignUpcomingPage(visit.startsOn, visit.today)
          : visit.kind === 'campaign_ended'
            ? campaignEndedPage()
            : undefined;
    if (page) return reply.header('content-security-policy', INACTIVE_LINK_CSP).type('text/html; charset=utf-8').send(page);
    return reply.redirect(`${app.config.shopUrl}/?ref=${encodeURIComponent(visit.code)}`, 302);
  });
}
