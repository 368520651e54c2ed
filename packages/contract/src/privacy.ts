import { z } from 'zod';

/**
 * How long the portal keeps what (issue 22): the retention job (apps/server/src/modules/privacy/
 * retention.ts) deletes by these numbers, the privacy page /integritet states them, and
 * docs/privacy.md explains them. One place, so the three never disagree.
 */
export const RETENTION = {
  /** An account whose groups are all archived and that has not signed in for this long is erased. */
  inactiveAccountMonths: 24,
  /** Visits through a personal link, counted per day, are deleted after this long. */
  linkClickMonths: 24,
  /** A refresh token (a sign-in on a device) lasts this long; an expired one is deleted. */
  sessionDays: 30,
  /** A session ended (signed out, password changed) is deleted after this long. */
  revokedSessionDays: 7,
  /** A password-reset code works for this long and is then deleted. */
  resetCodeMinutes: 60,
  /** Orders and payouts are bookkeeping (bokföringslagen): kept this long, without a name once the seller is erased. */
  bookkeepingYears: 7,
} as const;

/** GET /api/privacy: what the public privacy page /integritet needs from the server. */
export const ZPrivacyInfoResponseSchema = z.object({
  /** Whom a parent writes to about the portal's data (PRIVACY_CONTACT): an e-mail address or a short text. */
  contact: z.string(),
});
export type TPrivacyInfoResponse = z.infer<typeof ZPrivacyInfoResponseSchema>;
