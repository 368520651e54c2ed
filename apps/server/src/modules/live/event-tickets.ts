/**
 * Tickets for the live-figure stream. `POST /api/events/ticket` (signed in) stores a ticket's hash
 * for TICKET_TTL_MS; `GET /api/events?ticket=…` takes it (deleting it: single use) at whichever
 * server process the stream reaches, and checks the session behind it once more. The stream may
 * last until the access token that asked would have expired.
 */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { eventTickets, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { randomToken, sha256 } from '../../lib/random-codes.js';
import type { AuthUser } from '../../lib/current-user.js';

export const TICKET_TTL_MS = 30_000;

/** What a taken ticket allows: whose stream, and until when. */
export interface StreamGrant {
  userId: number;
  sessionId: string | null;
  tokenVersion: number;
  isSuperadmin: boolean;
  endsAt: Date;
}

const refused = () => new AppError('UNAUTHENTICATED', 'Biljetten till händelseströmmen är ogiltig eller har gått ut. Hämta en ny.');

/** The `exp` of a token authentication has already verified (ms since the epoch). */
export function tokenExpiry(bearer: string | undefined, now: number): number {
  const payload = bearer?.replace(/^Bearer\s+/, '').split('.')[1];
  try {
    const exp = (JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    if (typeof exp === 'number') return exp * 1000;
  } catch {
    // falls through: a stream of the shortest life
  }
  return now + TICKET_TTL_MS;
}

export async function issueEventTicket(
  db: Db,
  user: AuthUser,
  options: { tokenExpiresAtMs: number; now?: Date },
): Promise<{ ticket: string; expiresInSeconds: number }> {
  const now = options.now ?? new Date();
  const ticket = randomToken();
  const [row] = await db.select({ tokenVersion: users.tokenVersion }).from(users).where(eq(users.id, user.id));
  if (!row) throw refused();
  await db.insert(eventTickets).values({
    ticketHash: sha256(ticket),
    userId: user.id,
    sessionId: user.sessionId ?? null,
    tokenVersion: row.tokenVersion,
    streamEndsAt: new Date(options.tokenExpiresAtMs),
    expiresAt: new Date(now.getTime() + TICKET_TTL_MS),
  });
  // Tickets nobody used are cleared as new ones are issued (a few rows at most, through the index).
  await db.delete(eventTickets).where(lt(eventTickets.expiresAt, new Date(now.getTime() - TICKET_TTL_MS)));
  return { ticket, expiresInSeconds: TICKET_TTL_MS / 1000 };
}

/** Takes the ticket (it is gone afterwards, used or not) and checks that its session still holds. */
export async function takeEventTicket(db: Db, ticket: string | undefined, now = new Date()): Promise<StreamGrant> {
  if (!ticket || ticket.length > 200) throw refused();
  const [taken] = await db
    .delete(eventTickets)
    .where(and(eq(eventTickets.ticketHash, sha256(ticket)), gt(eventTickets.expiresAt, now)))
    .returning();
  if (!taken || taken.streamEndsAt <= now) throw refused();
  const [user] = await db
    .select({ tokenVersion: users.tokenVersion, endedSessions: users.endedSessions, isSuperadmin: users.isSuperadmin })
    .from(users)
    .where(and(eq(users.id, taken.userId), sql`${users.erasedAt} is null`));
  if (!user || !grantHolds(taken, user)) throw refused();
  return {
    userId: taken.userId,
    sessionId: taken.sessionId,
    tokenVersion: taken.tokenVersion,
    isSuperadmin: user.isSuperadmin,
    endsAt: taken.streamEndsAt,
  };
}

/** Whether a stream's session still holds for the user's row as it is now. */
export function grantHolds(
  grant: { sessionId: string | null; tokenVersion: number },
  user: { tokenVersion: number; endedSessions: { sid: string }[] },
): boolean {
  if (user.tokenVersion !== grant.tokenVersion) return false;
  return !grant.sessionId || !user.endedSessions.some((ended) => ended.sid === grant.sessionId);
}
