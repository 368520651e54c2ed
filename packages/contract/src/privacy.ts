import { z } from 'zod';
import { ZGivenPasswordSchema, ZSekSchema } from './common.js';

/** 'Radera mitt konto': the password confirms that it is the person themself (issue 22). */
export const ZDeleteAccountRequestSchema = z.object({
  password: ZGivenPasswordSchema(),
});
export type TDeleteAccountRequest = z.infer<typeof ZDeleteAccountRequestSchema>;

/**
 * 'Ladda ner mina uppgifter' (`GET /api/account/export`): everything stored about the person, as
 * one JSON file. Never a password hash, never a buyer's data. Money in SEK, instants in ISO 8601.
 */
export const ZAccountExportSchema = z.object({
  exported_at: z.string(),
  account: z.object({
    id: z.number(),
    full_name: z.string(),
    /** Null for a class-list pupil, who has a username instead (issue 31). */
    email: z.string().nullable(),
    username: z.string().nullable(),
    phone: z.string().nullable(),
    alias: z.string().nullable(),
    public_name: z.string(),
    is_superadmin: z.boolean(),
    is_under_13: z.boolean(),
    guardian_consent: z.string().nullable(),
    sale_mail: z.boolean(),
    weekly_summary: z.boolean(),
    active_group_id: z.number().nullable(),
    last_sign_in_at: z.string().nullable(),
    created_at: z.string(),
  }),
  memberships: z.array(
    z.object({
      membership_id: z.number(),
      group_id: z.number(),
      group_name: z.string(),
      role: z.string(),
      link_code: z.string(),
      personal_link: z.string(),
      protected_identity: z.boolean(),
      personal_goal: ZSekSchema.nullable(),
      joined_at: z.string(),
    }),
  ),
  orders: z.array(
    z.object({
      order_id: z.number(),
      order_name: z.string().nullable(),
      membership_id: z.number(),
      group_id: z.number().nullable(),
      ordered_at: z.string(),
      state: z.string(),
      subtotal_incl_vat: ZSekSchema,
      commission: ZSekSchema,
      currency: z.string(),
      lines: z.array(
        z.object({
          kind: z.string(),
          title: z.string(),
          quantity: z.number(),
          amount: ZSekSchema,
          commission: ZSekSchema,
          booked_at: z.string(),
          payout_id: z.number().nullable(),
        }),
      ),
    }),
  ),
  link_clicks_per_day: z.array(z.object({ membership_id: z.number(), day: z.string(), clicks: z.number() })),
  payouts: z.array(
    z.object({
      payout_id: z.number(),
      group_id: z.number(),
      period_from: z.string(),
      period_to: z.string(),
      status: z.string(),
      paid_at: z.string().nullable(),
      /** The person's own lines in it: their number, sales and commission. */
      own_lines_count: z.number(),
      own_sales: ZSekSchema,
      own_commission: ZSekSchema,
    }),
  ),
  audit_entries: z.array(
    z.object({
      id: z.number(),
      action: z.string(),
      as_actor: z.boolean(),
      target_type: z.string(),
      target_id: z.string().nullable(),
      details: z.record(z.string(), z.unknown()).nullable(),
      created_at: z.string(),
    }),
  ),
  guardian_links: z.object({
    as_child: z.array(
      z.object({
        guardian_email: z.string(),
        guardian_user_id: z.number().nullable(),
        approved_at: z.string().nullable(),
        created_at: z.string(),
      }),
    ),
    as_guardian: z.array(
      z.object({ child_user_id: z.number(), child_name: z.string(), approved_at: z.string().nullable(), created_at: z.string() }),
    ),
  }),
});
export type TAccountExport = z.infer<typeof ZAccountExportSchema>;

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
  /**
   * Mail once sent or given up, and its copy in the outbox folder, is deleted after this long at
   * the latest (the mail sender deletes a sent one after a day already); an erasure deletes the
   * person's at once.
   */
  sentMailDays: 7,
  /**
   * A consent code's hash (never the code) is kept this long after the code expired, and that of a
   * removed child's account this long after the removal: a guardian who opens the mail's link later
   * is told what became of it, not that it does not exist (issue 33).
   */
  consentCodeMonths: 12,
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
