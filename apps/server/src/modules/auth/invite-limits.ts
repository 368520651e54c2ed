import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../errors.js';
import { sha256 } from '../../lib/random-codes.js';
import type { AttemptCount } from '../../db/attempt-counters.js';
import { swedishDuration } from '../../lib/rate-limits.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * How many consent mails registration may send (issue 28, decision 051), counted by every server
 * process together (the attempt counters: the `rate_limits` table, or Redis).
 */
export const GUARDIAN_INVITE_LIMITS = {
  /** To one address: a family's three children registering on one day, not a flood of one inbox. */
  recipient: { max: 3, windowMs: 24 * HOUR },
  /** From one group: two classes registering in one lesson. */
  group: { max: 60, windowMs: HOUR },
};

/**
 * One inbox, however it is spelt: case, spaces and a `+tag` (which most providers deliver to the
 * same inbox) make no new address. Hashed, so the counters hold no address.
 */
export const recipientKey = (email: string) => {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  const local = at > 0 ? address.slice(0, at).replace(/\+.*$/, '') : address;
  return sha256(at > 0 ? `${local}${address.slice(at)}` : address);
};

const hours = (ms: number) => {
  const whole = Math.ceil(ms / HOUR);
  return whole <= 1 ? swedishDuration(ms) : `${whole} timmar`;
};

/** Counts one consent mail about to be sent; throws the 429 that refuses it when a limit is passed. */
export type CountInvite = (invite: { guardianEmail: string; groupId: number }) => Promise<void>;

/**
 * Runs a registration with its consent mails counted. `run` calls `countInvite` before it queues
 * a mail, outside its transaction; a registration that then fails, or is refused, takes its count
 * back, so only mails that were sent count. Off when RATE_LIMITS=0, as every other limit is.
 */
export function guardianInviteLimits(app: FastifyInstance) {
  return async function withInviteLimits<T>(reply: FastifyReply, run: (countInvite: CountInvite) => Promise<T>): Promise<T> {
    if (!app.config.rateLimits) return run(async () => {});
    let counted: string[] = [];
    let sent = false;
    try {
      const result = await run(async ({ guardianEmail, groupId }) => {
        const keys = [
          { key: `guardian-invite|recipient:${recipientKey(guardianEmail)}`, windowMs: GUARDIAN_INVITE_LIMITS.recipient.windowMs },
          { key: `guardian-invite|group:${groupId}`, windowMs: GUARDIAN_INVITE_LIMITS.group.windowMs },
        ];
        const [recipient, group] = (await app.attemptCounters.add(keys)) as [AttemptCount, AttemptCount];
        counted = keys.map(({ key }) => key);
        if (recipient.current > GUARDIAN_INVITE_LIMITS.recipient.max) {
          reply.header('retry-after', Math.max(1, Math.ceil(recipient.ttl / 1000)));
          throw new AppError(
            'RATE_LIMITED',
            `Vårdnadshavarens e-postadress har redan fått ${GUARDIAN_INVITE_LIMITS.recipient.max} mejl om godkännande det senaste dygnet, ` +
              `så vi skickar inga fler dit just nu. Kontot har inte skapats. Försök igen om ${hours(recipient.ttl)}, ` +
              'eller be din lärare eller ledare om hjälp.',
          );
        }
        if (group.current > GUARDIAN_INVITE_LIMITS.group.max) {
          reply.header('retry-after', Math.max(1, Math.ceil(group.ttl / 1000)));
          throw new AppError(
            'RATE_LIMITED',
            'Många i gruppen har registrerat sig som under 13 år den senaste timmen. Kontot har inte skapats. ' +
              `Vänta ${swedishDuration(group.ttl)} och försök igen.`,
          );
        }
      });
      sent = true;
      return result;
    } finally {
      if (!sent && counted.length > 0) await app.attemptCounters.takeBack(counted);
    }
  };
}
