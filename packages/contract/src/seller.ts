import { z } from 'zod';
import { ZIdParamSchema, ZSekSchema } from './common.js';
import { ZMembershipRoleSchema } from './account.js';
import { ZGroupGoalSchema, ZParticipationSchema } from './goals.js';
import { ZCampaignSchema, ZClosingNoteSchema } from './campaigns.js';

/** How a group's leaderboard shows its pupils (issue 20, decision 039): `full` is spec §6's list. */
export const ZLeaderboardModeSchema = z.enum(['full', 'participation', 'own_only'], { error: 'Ogiltigt läge för topplistan' });
export type TLeaderboardMode = z.infer<typeof ZLeaderboardModeSchema>;

/**
 * The dashboard's user summary (spec §3), for the user's active group. Without an active group
 * `user.role` and `group_hint` are null, the figures 0 and `personal_link` null.
 */
export const ZMeSummaryResponseSchema = z.object({
  user: z.object({
    id: z.number(),
    full_name: z.string(),
    /** The name buyers see (issue 22): as the family chose it, only the alias for a protected pupil; for the share texts. */
    public_seller_name: z.string(),
    role: ZMembershipRoleSchema.nullable(),
    /** Under 13 and not yet approved by a guardian (issue 22): the link is inactive, the dashboard says so. */
    awaiting_guardian_consent: z.boolean(),
    /** A guardian of at least one approved child: the web offers the guardian view. */
    is_guardian: z.boolean(),
  }),
  group_hint: z
    .object({
      id: z.number(),
      name: z.string(),
      code: z.string(),
      leaderboard_visible: z.boolean(),
      /** An archived group has ended (issue 19): the dashboard says so and shows its final figures. */
      archived: z.boolean(),
    })
    .nullable(),
  personal: z.object({
    total_sales: ZSekSchema,
    total_commission: ZSekSchema,
    personal_link: z.string().nullable(),
    orders_count: z.number().int(),
    /**
     * The pupil's own goal in kronor (issue 20), null until they set one. Only ever in the pupil's
     * own summary: never in totals, a leaderboard or a classmate's answer. Measured, like the
     * class goal, in commission: the pupil's progress is `total_commission` against it.
     */
    goal: ZSekSchema.nullable(),
    /**
     * 'Väntande' (issue 30 point 4): the part of total_commission from orders still in the holding
     * period (the buyer's right to withdraw), which no payout takes yet; 0 without a holding period.
     */
    pending_commission: ZSekSchema,
  }),
  /** PAYOUT_HOLD_DAYS: how long an order's commission is 'Väntande'; 0 when it is payable at once. */
  payout_hold_days: z.number().int(),
});
export type TMeSummaryResponse = z.infer<typeof ZMeSummaryResponseSchema>;

/**
 * The active group's totals (spec §3); zeros and a hidden leaderboard without an active group.
 * Issue 20 adds the class goal, how much of the class has started, and the leaderboard's mode.
 */
export const ZGroupTotalsResponseSchema = z.object({
  show_leaderboard: z.boolean(),
  leaderboard_mode: ZLeaderboardModeSchema,
  /** `pending_commission`: the class's 'Väntande', as the seller summary's (issue 30 point 4). */
  totals: z.object({
    total_sales: ZSekSchema,
    total_commission: ZSekSchema,
    orders_count: z.number().int(),
    pending_commission: ZSekSchema,
  }),
  goal: ZGroupGoalSchema.nullable(),
  participation: ZParticipationSchema,
  /** Issue 31: the class's campaign, if the teacher has set one, and what the money became once written. */
  campaign: ZCampaignSchema.nullable(),
  closing_note: ZClosingNoteSchema.nullable(),
});
export type TGroupTotalsResponse = z.infer<typeof ZGroupTotalsResponseSchema>;

export const ZLeaderboardItemSchema = z.object({
  user_id: z.number(),
  seller_name: z.string(),
  sales: ZSekSchema,
  commission: ZSekSchema,
});
export type TLeaderboardItem = z.infer<typeof ZLeaderboardItemSchema>;

const leaderboardGroup = z.object({ leaderboard_visible: z.boolean() });

/**
 * `full`: every member of the active group by sales, highest first (spec §3). While the
 * leaderboard is hidden a seller gets no items at all; the group's admins always get them.
 */
export const ZFullLeaderboardSchema = z.object({
  mode: z.literal('full'),
  group: leaderboardGroup,
  items: z.array(ZLeaderboardItemSchema),
});
export type TFullLeaderboard = z.infer<typeof ZFullLeaderboardSchema>;

/** A pupil who has started, by name only: no amount, no rank. */
export const ZParticipantSchema = z.object({ user_id: z.number(), seller_name: z.string() });
export type TParticipant = z.infer<typeof ZParticipantSchema>;

/** `participation`: the pupils who have sold at least once, in Swedish name order, beside '18 av 25 har sålt'. */
export const ZParticipationLeaderboardSchema = z.object({
  mode: z.literal('participation'),
  group: leaderboardGroup,
  participation: ZParticipationSchema,
  sellers: z.array(ZParticipantSchema),
});
export type TParticipationLeaderboard = z.infer<typeof ZParticipationLeaderboardSchema>;

/** `own_only`: the caller's own figures, the class total and the share started; nobody else's. */
export const ZOwnOnlyLeaderboardSchema = z.object({
  mode: z.literal('own_only'),
  group: leaderboardGroup,
  participation: ZParticipationSchema,
  own: z.object({ sales: ZSekSchema, commission: ZSekSchema }),
  total_sales: ZSekSchema,
});
export type TOwnOnlyLeaderboard = z.infer<typeof ZOwnOnlyLeaderboardSchema>;

/**
 * The leaderboard as the group's mode lets its members see it (issue 20, decision 039): what a
 * mode hides is not in the answer at all.
 */
export const ZLeaderboardResponseSchema = z.discriminatedUnion('mode', [
  ZFullLeaderboardSchema,
  ZParticipationLeaderboardSchema,
  ZOwnOnlyLeaderboardSchema,
]);
export type TLeaderboardResponse = z.infer<typeof ZLeaderboardResponseSchema>;

/**
 * spec §7: `{group_id, show_leaderboard}`; issue 20 adds `leaderboard_mode`. Either or both may be
 * sent; a call with neither is refused.
 */
export const ZGroupSettingsRequestSchema = z
  .object({
    group_id: ZIdParamSchema,
    show_leaderboard: z.boolean({ error: 'Ange om topplistan ska visas' }).optional(),
    leaderboard_mode: ZLeaderboardModeSchema.optional(),
  })
  .refine((settings) => settings.show_leaderboard !== undefined || settings.leaderboard_mode !== undefined, {
    message: 'Ange om topplistan ska visas',
    path: ['show_leaderboard'],
  });
export type TGroupSettingsRequest = z.infer<typeof ZGroupSettingsRequestSchema>;

export const ZGroupSettingsResponseSchema = z.object({
  ok: z.literal(true),
  show_leaderboard: z.boolean(),
  leaderboard_mode: ZLeaderboardModeSchema,
});
export type TGroupSettingsResponse = z.infer<typeof ZGroupSettingsResponseSchema>;
