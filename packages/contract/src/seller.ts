import { z } from 'zod';
import { ZIdParamSchema, ZSekSchema } from './common.js';
import { ZMembershipRoleSchema } from './account.js';

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
  }),
});
export type TMeSummaryResponse = z.infer<typeof ZMeSummaryResponseSchema>;

/** The active group's totals (spec §3); zeros and a hidden leaderboard without an active group. */
export const ZGroupTotalsResponseSchema = z.object({
  show_leaderboard: z.boolean(),
  totals: z.object({ total_sales: ZSekSchema, total_commission: ZSekSchema, orders_count: z.number().int() }),
});
export type TGroupTotalsResponse = z.infer<typeof ZGroupTotalsResponseSchema>;

export const ZLeaderboardItemSchema = z.object({
  user_id: z.number(),
  seller_name: z.string(),
  sales: ZSekSchema,
  commission: ZSekSchema,
});
export type TLeaderboardItem = z.infer<typeof ZLeaderboardItemSchema>;

/**
 * Every member of the active group by sales, highest first (spec §3). While the leaderboard is
 * hidden a seller gets no items at all; the group's admins always get them.
 */
export const ZLeaderboardResponseSchema = z.object({
  group: z.object({ leaderboard_visible: z.boolean() }),
  items: z.array(ZLeaderboardItemSchema),
});
export type TLeaderboardResponse = z.infer<typeof ZLeaderboardResponseSchema>;

export const ZGroupSettingsRequestSchema = z.object({
  group_id: ZIdParamSchema,
  show_leaderboard: z.boolean({ error: 'Ange om topplistan ska visas' }),
});
export type TGroupSettingsRequest = z.infer<typeof ZGroupSettingsRequestSchema>;

export const ZGroupSettingsResponseSchema = z.object({ ok: z.literal(true), show_leaderboard: z.boolean() });
export type TGroupSettingsResponse = z.infer<typeof ZGroupSettingsResponseSchema>;
