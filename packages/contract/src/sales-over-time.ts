import { z } from 'zod';
import { ZDateSchema, ZSekSchema, idSchema, integerFromText } from './common.js';

/**
 * Sales over time (issue 20, point 7): a class's net sales per Stockholm day over its campaign,
 * and every group's sales per ISO week for the superadmin. Class totals only, never a pupil.
 */

/** `GET /api/group/sales-per-day?group_id=`: a member of the group (seller or admin) asks. */
export const ZGroupSalesPerDayQuerySchema = z.object({
  group_id: idSchema('Ogiltig grupp', 'Ange en grupp'),
});
export type TGroupSalesPerDayQuery = z.infer<typeof ZGroupSalesPerDayQuerySchema>;

export const ZSalesDaySchema = z.object({
  /** A Stockholm calendar day, YYYY-MM-DD. */
  date: ZDateSchema,
  /** The net sales (refunds and cancellations deducted) of the orders placed that day, in SEK. */
  sales: ZSekSchema,
  /**
   * The net commission of the same orders, in SEK: what the class earned that day. A class goal is
   * measured in commission (decisions 038, 042, 043), so the chart's line against the goal adds these.
   */
  commission: ZSekSchema,
  /** The orders placed that day, cancelled ones left out. */
  orders_count: z.number().int(),
});
export type TSalesDay = z.infer<typeof ZSalesDaySchema>;

/**
 * One entry per day from `from` to `to`, days without orders included as 0. The campaign runs
 * from the group's creation or first order to the goal's end date or today (to the last order if
 * that is later). `earlier_sales` is what was sold before `from` when a long campaign is cut to
 * its last `SALES_PER_DAY_MAX_DAYS` days, so `earlier_sales` plus the days is the group's total;
 * `earlier_commission` and `total_commission` are the same for commission. `ends_on` is the
 * goal's end date (it may lie after `to`), `goal` the goal in SEK, measured in commission.
 */
export const ZSalesPerDayResponseSchema = z.object({
  group_id: z.number().int(),
  from: ZDateSchema,
  to: ZDateSchema,
  ends_on: ZDateSchema.nullable(),
  goal: ZSekSchema.nullable(),
  earlier_sales: ZSekSchema,
  earlier_commission: ZSekSchema,
  total_sales: ZSekSchema,
  total_commission: ZSekSchema,
  days: z.array(ZSalesDaySchema),
});
export type TSalesPerDayResponse = z.infer<typeof ZSalesPerDayResponseSchema>;

/** A chart of more days than this is no longer readable on a phone. */
export const SALES_PER_DAY_MAX_DAYS = 366;

export const SALES_PER_WEEK_DEFAULT = 26;
export const SALES_PER_WEEK_MAX = 104;

/** `GET /api/admin/overview/sales-per-week?weeks=`: the last `weeks` ISO weeks, this one included. */
export const ZSalesPerWeekQuerySchema = z.object({
  weeks: z.preprocess(
    (value) => (value === '' || value === null ? undefined : integerFromText(value)),
    z
      .number({ error: 'Ogiltigt antal veckor' })
      .int('Ogiltigt antal veckor')
      .min(1, 'Ogiltigt antal veckor')
      .max(SALES_PER_WEEK_MAX, `Högst ${SALES_PER_WEEK_MAX} veckor`)
      .default(SALES_PER_WEEK_DEFAULT),
  ),
});
export type TSalesPerWeekQuery = z.infer<typeof ZSalesPerWeekQuerySchema>;

export const ZSalesWeekSchema = z.object({
  /** The ISO week, `2026-W47`. */
  week: z.string().regex(/^\d{4}-W\d{2}$/),
  /** Its Monday, a Stockholm calendar day. */
  starts_on: ZDateSchema,
  /** Net sales of the orders placed that week in every group, in SEK. */
  sales: ZSekSchema,
  /** Net commission of the same orders, in SEK: what the groups earned that week. */
  commission: ZSekSchema,
  orders_count: z.number().int(),
  /** How many groups had an order that week. */
  groups_count: z.number().int(),
});
export type TSalesWeek = z.infer<typeof ZSalesWeekSchema>;

/** Every week of the period, oldest first, weeks without orders included as 0. */
export const ZSalesPerWeekResponseSchema = z.object({ weeks: z.array(ZSalesWeekSchema) });
export type TSalesPerWeekResponse = z.infer<typeof ZSalesPerWeekResponseSchema>;
