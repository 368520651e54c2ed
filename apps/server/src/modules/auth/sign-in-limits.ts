import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { sha256 } from '../../lib/random-codes.js';
import type { AttemptCount } from '../../db/attempt-counters.js';
import { swedishDuration, tooManyAttempts } from '../../lib/rate-limits.js';
import { RESET_CODE_TTL_MINUTES } from './password-reset.js';

const MINUTE = 60_000;

/**
 * Wrong passwords only (decision 012): a right password never counts, and a right password from an
 * address that has not been guessing at that account always signs in (decision 054).
 */
export const PASSWORD_LIMITS = {
  /** Wrong passwords for one account from one address: the guesser is held back, nobody else. */
  accountFromAddress: { max: 10, windowMs: 15 * MINUTE },
  /**
   * Wrong passwords from one address over all accounts (a class behind one school address mistypes
   * too). Past it the address is spraying: it may still try an account it has not failed on
   * (decision 054), once per accountFromAddressDay, so every teacher behind it still signs in.
   */
  address: { max: 100, windowMs: 15 * MINUTE },
  /** How long an address past its limit remembers an account it failed on: one guess per account per day. */
  accountFromAddressDay: { windowMs: 24 * 60 * MINUTE },
  /** Wrong passwords for one account from all addresses together: past this the account is under attack… */
  account: { max: 100, windowMs: 60 * MINUTE },
  /** …and an address that has failed on it this many times gets no more tries until a window ends. */
  accountFromAddressUnderAttack: 3,
};

/** Reset mails: the owner can always reset (decision 012). */
export const RESET_MAIL_LIMITS = {
  /** Requests for one account from one address. */
  accountFromAddress: { max: 3, windowMs: 60 * MINUTE },
  /**
   * Requests for one account from all addresses, so nobody's inbox is flooded. Its window is no
   * longer than a code lives: whenever it refuses, the newest mail it let through still holds a
   * valid link, so the owner can reset with that one.
   */
  account: { max: 10, windowMs: Math.min(60 * MINUTE, RESET_CODE_TTL_MINUTES * MINUTE) },
};

/** The counters hold a hash of the e-mail address given, existing or not: a 429 tells nothing about who has an account. */
const accountKey = (email: string) => sha256(email.trim().toLowerCase());

const isWrongPassword = (error: unknown) =>
  error instanceof AppError && (error.code === 'INVALID_CREDENTIALS' || error.code === 'EMAIL_TAKEN');

function refuse(reply: FastifyReply, ttlMs: number, error: AppError = tooManyAttempts(ttlMs)): never {
  reply.header('retry-after', Math.max(1, Math.ceil(ttlMs / 1000)));
  throw error;
}

/**
 * Runs a password check (sign-in, or registration with an address that has an account) under the
 * limits above. The attempt is counted before the check, so parallel guesses cannot outrun the
 * count, and taken back unless the password was wrong (INVALID_CREDENTIALS, or EMAIL_TAKEN from
 * registration). Off when RATE_LIMITS=0.
 */
export function passwordAttempts(app: FastifyInstance) {
  return async function attempt<T>(request: FastifyRequest, reply: FastifyReply, email: string, check: () => Promise<T>): Promise<T> {
    if (!app.config.rateLimits) return check();
    const account = accountKey(email);
    const keys = [
      { key: `password|account:${account}|address:${request.ip}`, windowMs: PASSWORD_LIMITS.accountFromAddress.windowMs },
      { key: `password|address:${request.ip}`, windowMs: PASSWORD_LIMITS.address.windowMs },
      { key: `password|account:${account}`, windowMs: PASSWORD_LIMITS.account.windowMs },
      { key: `password|account:${account}|address:${request.ip}|day`, windowMs: PASSWORD_LIMITS.accountFromAddressDay.windowMs },
    ];
    const [fromAddress, address, whole, today] = (await app.attemptCounters.add(keys)) as [
      AttemptCount,
      AttemptCount,
      AttemptCount,
      AttemptCount,
    ];
    let counts = false;
    try {
      // An address past its limit is held back only on accounts it has failed on today: a school
      // address guessing at made-up accounts must not lock out every teacher behind it (decision
      // 054). A sprayer past the limit gets one guess per account it knows per day, fewer than
      // the limit's 9,600 a day for any list of fewer accounts.
      if (address.current > PASSWORD_LIMITS.address.max && today.current > 1) refuse(reply, Math.min(address.ttl, today.ttl));
      if (fromAddress.current > PASSWORD_LIMITS.accountFromAddress.max) refuse(reply, fromAddress.ttl);
      if (whole.current > PASSWORD_LIMITS.account.max && fromAddress.current > PASSWORD_LIMITS.accountFromAddressUnderAttack) {
        refuse(reply, Math.min(fromAddress.ttl, whole.ttl));
      }
      try {
        return await check();
      } catch (error) {
        counts = isWrongPassword(error);
        throw error;
      }
    } finally {
      if (!counts) await app.attemptCounters.takeBack(keys.map(({ key }) => key));
    }
  };
}

/** preHandler of forgot-password: the limits of RESET_MAIL_LIMITS (none when RATE_LIMITS=0). */
export function resetMailLimit(app: FastifyInstance) {
  if (!app.config.rateLimits) return [];
  return [
    async (request: FastifyRequest<{ Body: { email: string } }>, reply: FastifyReply) => {
      const account = accountKey(request.body.email);
      const [fromAddress] = (await app.attemptCounters.add([
        { key: `reset-mail|account:${account}|address:${request.ip}`, windowMs: RESET_MAIL_LIMITS.accountFromAddress.windowMs },
      ])) as [AttemptCount];
      if (fromAddress.current > RESET_MAIL_LIMITS.accountFromAddress.max) refuse(reply, fromAddress.ttl);
      const [whole] = (await app.attemptCounters.add([
        { key: `reset-mail|account:${account}`, windowMs: RESET_MAIL_LIMITS.account.windowMs },
      ])) as [AttemptCount];
      if (whole.current > RESET_MAIL_LIMITS.account.max) {
        refuse(
          reply,
          whole.ttl,
          new AppError(
            'RATE_LIMITED',
            'Om adressen har ett konto har flera återställningslänkar redan skickats dit. ' +
              `Använd länken i det senaste mejlet, eller vänta ${swedishDuration(whole.ttl)} och försök igen.`,
          ),
        );
      }
    },
  ];
}
