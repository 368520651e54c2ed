import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { ZEventsQuerySchema, ZEventTicketResponseSchema } from '@saljportalen/contract';
import { memberships, users } from '../../db/schema.js';
import { currentUser } from '../../lib/current-user.js';
import { EventStreams } from './event-streams.js';
import { issueEventTicket, takeEventTicket, tokenExpiry } from './event-tickets.js';

/** Live figures over Server-Sent Events (issue 20 §4; README.md in this folder). */
export async function liveRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const audienceOf = async (userId: number) => {
    const own = await app.db
      .select({ id: memberships.id, groupId: memberships.groupId })
      .from(memberships)
      .where(eq(memberships.userId, userId));
    return { groupIds: [...new Set(own.map((row) => row.groupId))], membershipIds: own.map((row) => row.id) };
  };
  const streams = new EventStreams({
    loadAudience: audienceOf,
    heartbeatMs: app.config.liveHeartbeatMs,
    version: () => app.changeFeed.version(),
    log: app.log,
    loadAccess: async (userId) => {
      const [user] = await app.db
        .select({
          tokenVersion: users.tokenVersion,
          endedSessions: users.endedSessions,
          isSuperadmin: users.isSuperadmin,
          erasedAt: users.erasedAt,
        })
        .from(users)
        .where(eq(users.id, userId));
      return user && !user.erasedAt ? user : undefined;
    },
  });
  const unsubscribe = app.changeFeed.subscribe((change) => streams.handle(change));
  // Open streams would hold the shutdown (and its drain) for ever: they end first.
  app.addHook('preClose', async () => {
    unsubscribe();
    streams.closeAll();
  });

  // The ticket is for the signed-in; the stream itself is opened with the ticket (an EventSource
  // sends no bearer token).
  await app.register(async (scope) => {
    const signedIn = scope.withTypeProvider<ZodTypeProvider>();
    signedIn.addHook('onRequest', app.authenticate);
    signedIn.post('/api/events/ticket', { schema: { response: { 200: ZEventTicketResponseSchema } } }, async (request) => {
      const issued = await issueEventTicket(app.db, currentUser(request), {
        tokenExpiresAtMs: tokenExpiry(request.headers.authorization, Date.now()),
      });
      return { ticket: issued.ticket, expires_in: issued.expiresInSeconds };
    });
  });

  app.get('/api/events', { schema: { querystring: ZEventsQuerySchema } }, async (request, reply) => {
    const grant = await takeEventTicket(app.db, request.query.ticket);
    const audience = await audienceOf(grant.userId);
    const header = request.headers['last-event-id'];
    const lastEventId = (Array.isArray(header) ? header[0] : header) ?? request.query.last_event_id;
    reply.hijack();
    // Answered: a stream is not a request the shutdown waits for (it ends the streams itself).
    request.inFlightAnswered?.();
    request.raw.socket.setTimeout(0);
    request.raw.socket.setNoDelay(true);
    streams.open(reply.raw, grant, audience, lastEventId);
  });
}
